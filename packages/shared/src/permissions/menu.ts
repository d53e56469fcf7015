import type { PlanFlag, PlanFlags, Profile } from "../enums.js";
import { atLeast, type Actor } from "./roles.js";

export interface RouteGate {
  /** Lowest profile allowed; super users pass every profile gate. */
  minProfile?: Profile;
  /** Only platform super administrators. */
  superOnly?: boolean;
  /** Plan feature flag the company must have. */
  planFlag?: PlanFlag;
  /**
   * The page itself tells a refused visitor why (a toast) and redirects after a second
   * (2-administration §6, the users page); the route guard lets it render.
   */
  deniedNotice?: boolean;
  /**
   * A company setting that must be on ("true" or "enabled", its default when unset) for the API
   * route; checked by the server (the setting is not in the actor), refused with ERR_FEATURE_DISABLED.
   */
  companySetting?: "campaignsEnabled";
}

/** Route gates of spec 1-core §2 and §6, one table used by the menu, the route guard and the API. */
export const ROUTE_GATES: Record<string, RouteGate> = {
  "/": { minProfile: "admin" },
  "/reports": { minProfile: "supervisor" },
  // the company's BI dashboard (biUrl), embedded; in the menu only when the company has one
  "/bi": { minProfile: "admin" },
  "/tickets": {},
  "/kanban": { planFlag: "useKanban" },
  "/quick-messages": {},
  "/contacts": {},
  "/helps": {},
  "/schedules": { planFlag: "useSchedules" },
  "/todolist": {},
  "/subscription": {},
  "/tags": { minProfile: "admin" },
  "/queues": { minProfile: "admin" },
  "/settings": { minProfile: "admin" },
  "/announcements": { superOnly: true, deniedNotice: true },
  "/prompts": { superOnly: true, planFlag: "useOpenAi", deniedNotice: true },
  "/queue-integration": { superOnly: true, planFlag: "useIntegrations", deniedNotice: true },
  "/messages-api": { superOnly: true, planFlag: "useExternalApi" },
  "/financeiro": { superOnly: true },
  "/connections": {},
  "/connectionsMeta": { minProfile: "supervisor" },
  "/campaigns": { minProfile: "supervisor", planFlag: "useCampaigns" },
  "/new-campaign": { minProfile: "supervisor", planFlag: "useCampaigns" },
  "/templates": { minProfile: "supervisor", planFlag: "useCampaigns" },
  "/cost-centers": { minProfile: "supervisor", planFlag: "useCampaigns" },
  // the SMS sandbox provider's messages (and the phone's replies): campaign operators
  "/sms-sandbox": { minProfile: "supervisor", planFlag: "useCampaigns" },
  // e-mail campaigns: senders are managed by admins; the sandbox mailbox shows what the sandbox "sent"
  "/email-senders": { minProfile: "admin", planFlag: "useCampaigns" },
  "/email-sandbox": { minProfile: "supervisor" },
  // the company's opt-out list (SAIR/PARAR/STOP replies, unsubscribes, hard bounces), seen and corrected
  "/opt-outs": { minProfile: "supervisor", planFlag: "useCampaigns" },
  "/keywords": { minProfile: "supervisor" },
  // the simple e-mail tool (spec 3 §2): supervisors and administrators, in the 'Disparos' block
  "/Email": { minProfile: "supervisor", planFlag: "useCampaigns" },
  "/EmailLis": { minProfile: "supervisor", planFlag: "useCampaigns" },
  "/users": { minProfile: "admin", deniedNotice: true },
  // logins, profile changes and contacts' data exports and erasures (LGPD)
  "/audit-log": { minProfile: "admin" },
  "/chats": { planFlag: "useInternalChat" },
  // the sandbox test phone writes as any customer of the connection: the page and its API are for admins
  "/sandbox": { minProfile: "admin" },
};

export function passesGate(actor: Pick<Actor, "profile" | "super">, plan: Partial<PlanFlags> | null | undefined, gate: RouteGate): boolean {
  if (gate.superOnly && !actor.super) return false;
  if (gate.minProfile && !atLeast(actor, gate.minProfile)) return false;
  if (gate.planFlag && !plan?.[gate.planFlag]) return false;
  return true;
}

/** The gate of a concrete path: its longest matching prefix in ROUTE_GATES. */
export function gateForPath(path: string): RouteGate {
  const clean = path.split("?")[0] ?? "/";
  if (clean === "/") return ROUTE_GATES["/"] ?? {};
  const keys = Object.keys(ROUTE_GATES).filter((k) => k !== "/" && (clean === k || clean.startsWith(`${k}/`)));
  keys.sort((a, b) => b.length - a.length);
  return keys[0] ? (ROUTE_GATES[keys[0]] ?? {}) : {};
}

export function canVisit(actor: Pick<Actor, "profile" | "super">, plan: Partial<PlanFlags> | null | undefined, path: string): boolean {
  return passesGate(actor, plan, gateForPath(path));
}

export type MenuSection = "main" | "campaigns" | "blocks" | "admin";

export interface MenuItem {
  path: string;
  /** i18n key under "menu." */
  key: string;
  section: MenuSection;
  /** Shown only when the company has a biUrl. */
  needsBiUrl?: boolean;
}

/** Every menu item of the shell, in display order. */
export const MENU_ITEMS: MenuItem[] = [
  { path: "/", key: "dashboard", section: "main" },
  { path: "/reports", key: "reports", section: "main" },
  { path: "/bi", key: "bi", section: "main", needsBiUrl: true },
  { path: "/tickets", key: "tickets", section: "main" },
  { path: "/quick-messages", key: "quickMessages", section: "main" },
  { path: "/kanban", key: "kanban", section: "main" },
  { path: "/contacts", key: "contacts", section: "main" },
  { path: "/schedules", key: "schedules", section: "main" },
  { path: "/chats", key: "chats", section: "main" },
  { path: "/todolist", key: "todolist", section: "main" },
  { path: "/helps", key: "helps", section: "main" },
  { path: "/connections", key: "connections", section: "main" },
  { path: "/subscription", key: "subscription", section: "main" },
  { path: "/campaigns", key: "campaigns", section: "campaigns" },
  { path: "/templates", key: "templates", section: "campaigns" },
  { path: "/connectionsMeta", key: "numbers", section: "campaigns" },
  { path: "/cost-centers", key: "costCenters", section: "campaigns" },
  { path: "/Email", key: "emailTool", section: "campaigns" },
  { path: "/EmailLis", key: "sentEmails", section: "campaigns" },
  { path: "/sms-sandbox", key: "smsSandbox", section: "campaigns" },
  { path: "/email-senders", key: "emailSenders", section: "campaigns" },
  { path: "/email-sandbox", key: "emailSandbox", section: "campaigns" },
  { path: "/opt-outs", key: "optOuts", section: "campaigns" },
  { path: "/keywords", key: "keywords", section: "blocks" },
  { path: "/users", key: "users", section: "admin" },
  { path: "/queues", key: "queues", section: "admin" },
  { path: "/tags", key: "tags", section: "admin" },
  { path: "/announcements", key: "announcements", section: "admin" },
  { path: "/prompts", key: "prompts", section: "admin" },
  { path: "/queue-integration", key: "queueIntegration", section: "admin" },
  { path: "/messages-api", key: "messagesApi", section: "admin" },
  { path: "/financeiro", key: "financeiro", section: "admin" },
  { path: "/audit-log", key: "auditLog", section: "admin" },
  { path: "/settings", key: "settings", section: "admin" },
];

export function visibleMenu(
  actor: Pick<Actor, "profile" | "super">,
  plan: Partial<PlanFlags> | null | undefined,
  company: { biUrl?: string } = {},
): MenuItem[] {
  return MENU_ITEMS.filter((item) => canVisit(actor, plan, item.path) && (!item.needsBiUrl || !!company.biUrl?.trim()));
}
