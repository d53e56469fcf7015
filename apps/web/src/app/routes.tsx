import { lazy, type ComponentType, type LazyExoticComponent } from "react";

export interface PrivateRoute {
  path: string;
  page: LazyExoticComponent<ComponentType>;
  /** Render without the shell (full screen). */
  bare?: boolean;
  /**
   * The features whose texts the page shows (their `locales/`), loaded when it opens; the workspace's
   * (lib/i18n.ts `WORKSPACE_FEATURES`) are always there.
   */
  texts: readonly string[];
}

/** Every private page; each feature owns its page file. Gates come from ROUTE_GATES in @atende/shared. */
export const PRIVATE_ROUTES: PrivateRoute[] = [
  { path: "/", page: lazy(() => import("../features/dashboard/page")), texts: ["dashboard"] },
  { path: "/reports", page: lazy(() => import("../features/reports/page")), texts: ["reports"] },
  { path: "/bi", page: lazy(() => import("../features/bi/page")), texts: ["bi"] },
  { path: "/tickets/:ticketId?", page: lazy(() => import("../features/tickets/page")), texts: ["tickets"] },
  { path: "/kanban", page: lazy(() => import("../features/kanban/page")), texts: ["kanban"] },
  { path: "/quick-messages", page: lazy(() => import("../features/quick-messages/page")), texts: ["quick-messages"] },
  { path: "/contacts", page: lazy(() => import("../features/contacts/page")), texts: ["contacts"] },
  { path: "/helps", page: lazy(() => import("../features/helps/page")), texts: ["helps"] },
  { path: "/schedules", page: lazy(() => import("../features/schedules/page")), texts: ["schedules"] },
  { path: "/todolist", page: lazy(() => import("../features/todolist/page")), texts: ["todolist"] },
  { path: "/subscription", page: lazy(() => import("../features/subscription/page")), texts: ["subscription"] },
  { path: "/tags", page: lazy(() => import("../features/tags/page")), texts: ["tags"] },
  { path: "/queues", page: lazy(() => import("../features/queues/page")), texts: ["queues", "queue-integration"] },
  { path: "/settings", page: lazy(() => import("../features/settings/page")), texts: ["settings"] },
  { path: "/announcements", page: lazy(() => import("../features/announcements/page")), texts: ["announcements"] },
  { path: "/prompts", page: lazy(() => import("../features/prompts/page")), texts: ["prompts"] },
  { path: "/queue-integration", page: lazy(() => import("../features/queue-integration/page")), texts: ["queue-integration"] },
  { path: "/messages-api", page: lazy(() => import("../features/messages-api/page")), texts: ["messages-api"] },
  { path: "/financeiro", page: lazy(() => import("../features/subscription/financeiro-page")), texts: ["subscription"] },
  { path: "/connections", page: lazy(() => import("../features/connections/page")), texts: ["connections", "queue-integration"] },
  { path: "/connectionsMeta", page: lazy(() => import("../features/connections-meta/page")), texts: ["connections-meta"] },
  { path: "/campaigns", page: lazy(() => import("../features/campaigns/page")), texts: ["campaigns"] },
  { path: "/new-campaign", page: lazy(() => import("../features/campaigns/new-campaign-page")), texts: ["campaigns"] },
  { path: "/templates", page: lazy(() => import("../features/templates/page")), texts: ["templates"] },
  { path: "/cost-centers", page: lazy(() => import("../features/cost-centers/page")), texts: ["cost-centers"] },
  { path: "/email-senders", page: lazy(() => import("../features/email-senders/page")), texts: ["email-senders"] },
  { path: "/email-sandbox", page: lazy(() => import("../features/email-sandbox/page")), texts: ["email-sandbox"] },
  { path: "/opt-outs", page: lazy(() => import("../features/opt-outs/page")), texts: ["opt-outs"] },
  { path: "/keywords", page: lazy(() => import("../features/keywords/page")), texts: ["keywords"] },
  { path: "/users", page: lazy(() => import("../features/users/page")), texts: ["users"] },
  { path: "/audit-log", page: lazy(() => import("../features/audit-log/page")), texts: ["audit-log"] },
  { path: "/Email", page: lazy(() => import("../features/email-tool/send-page")), texts: ["email-tool"] },
  { path: "/EmailLis", page: lazy(() => import("../features/email-tool/sent-list-page")), texts: ["email-tool"] },
  { path: "/sms-sandbox", page: lazy(() => import("../features/sms-sandbox/page")), texts: ["sms-sandbox"] },
  { path: "/chats/:uuid?", page: lazy(() => import("../features/chats/page")), texts: ["chats"] },
  { path: "/sandbox/:whatsappId", page: lazy(() => import("../features/sandbox/page")), bare: true, texts: ["sandbox"] },
];
