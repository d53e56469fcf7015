import { lazy, type ComponentType, type LazyExoticComponent } from "react";

export interface PrivateRoute {
  path: string;
  page: LazyExoticComponent<ComponentType>;
  /** Render without the shell (full screen). */
  bare?: boolean;
}

/** Every private page; each feature owns its page file. Gates come from ROUTE_GATES in @atende/shared. */
export const PRIVATE_ROUTES: PrivateRoute[] = [
  { path: "/", page: lazy(() => import("../features/dashboard/page")) },
  { path: "/reports", page: lazy(() => import("../features/reports/page")) },
  { path: "/bi", page: lazy(() => import("../features/bi/page")) },
  { path: "/tickets/:ticketId?", page: lazy(() => import("../features/tickets/page")) },
  { path: "/kanban", page: lazy(() => import("../features/kanban/page")) },
  { path: "/quick-messages", page: lazy(() => import("../features/quick-messages/page")) },
  { path: "/contacts", page: lazy(() => import("../features/contacts/page")) },
  { path: "/helps", page: lazy(() => import("../features/helps/page")) },
  { path: "/schedules", page: lazy(() => import("../features/schedules/page")) },
  { path: "/todolist", page: lazy(() => import("../features/todolist/page")) },
  { path: "/subscription", page: lazy(() => import("../features/subscription/page")) },
  { path: "/tags", page: lazy(() => import("../features/tags/page")) },
  { path: "/queues", page: lazy(() => import("../features/queues/page")) },
  { path: "/settings", page: lazy(() => import("../features/settings/page")) },
  { path: "/announcements", page: lazy(() => import("../features/announcements/page")) },
  { path: "/prompts", page: lazy(() => import("../features/prompts/page")) },
  { path: "/queue-integration", page: lazy(() => import("../features/queue-integration/page")) },
  { path: "/messages-api", page: lazy(() => import("../features/messages-api/page")) },
  { path: "/financeiro", page: lazy(() => import("../features/financeiro/page")) },
  { path: "/connections", page: lazy(() => import("../features/connections/page")) },
  { path: "/connectionsMeta", page: lazy(() => import("../features/connections-meta/page")) },
  { path: "/campaigns", page: lazy(() => import("../features/campaigns/page")) },
  { path: "/new-campaign", page: lazy(() => import("../features/campaigns/new-campaign-page")) },
  { path: "/templates", page: lazy(() => import("../features/templates/page")) },
  { path: "/cost-centers", page: lazy(() => import("../features/cost-centers/page")) },
  { path: "/email-senders", page: lazy(() => import("../features/email-senders/page")) },
  { path: "/email-sandbox", page: lazy(() => import("../features/email-sandbox/page")) },
  { path: "/keywords", page: lazy(() => import("../features/keywords/page")) },
  { path: "/users", page: lazy(() => import("../features/users/page")) },
  { path: "/chats/:uuid?", page: lazy(() => import("../features/chats/page")) },
  { path: "/sandbox/:whatsappId", page: lazy(() => import("../features/sandbox/page")), bare: true },
];
