import { LIMITS, whatsappInput, type Whatsapp } from "@atende/shared";
import { z } from "zod";

/** Spec 1-core §8 ERR_WAPP_GREETING_REQUIRED, checked before the server does. */
function greetingRequired(v: { queueIds: number[]; greetingMessage: string }, ctx: z.RefinementCtx) {
  if (v.queueIds.length > 1 && !v.greetingMessage.trim()) {
    ctx.addIssue({ code: "custom", path: ["greetingMessage"], message: "backendErrors.ERR_WAPP_GREETING_REQUIRED" });
  }
}

/** The connection form: the shared request schema (name 2 to 50) plus the greeting rule. */
export const connectionFormSchema = whatsappInput.superRefine(greetingRequired);
/** Official connections keep the verified name of their number (spec 1-core §5: no name rule for them). */
export const officialFormSchema = whatsappInput.extend({ name: z.string() }).superRefine(greetingRequired);

export type ConnectionFormIn = z.input<typeof whatsappInput>;
export type ConnectionFormOut = z.output<typeof whatsappInput>;
export type FormField = keyof ConnectionFormIn;

export const EMPTY_FORM: ConnectionFormIn = {
  name: "",
  provider: "sandbox",
  isDefault: false,
  queueIds: [],
  transferQueueId: null,
  greetingMessage: "",
  complationMessage: "",
  outOfHoursMessage: "",
  ratingMessage: "",
  expiresTicket: LIMITS.expiresTicketDefault,
  expiresInactiveMessage: "",
  timeUseBotQueues: 0,
  maxUseBotQueues: LIMITS.maxUseBotQueuesDefault,
  promptId: null,
  integrationId: null,
};

export function formFromConnection(w: Whatsapp): ConnectionFormIn {
  return {
    name: w.name,
    provider: w.provider,
    isDefault: w.isDefault,
    queueIds: w.queues.map((q) => q.id),
    transferQueueId: w.transferQueueId,
    greetingMessage: w.greetingMessage,
    complationMessage: w.complationMessage,
    outOfHoursMessage: w.outOfHoursMessage,
    ratingMessage: w.ratingMessage,
    expiresTicket: w.expiresTicket,
    expiresInactiveMessage: w.expiresInactiveMessage,
    timeUseBotQueues: w.timeUseBotQueues,
    maxUseBotQueues: w.maxUseBotQueues,
    promptId: w.promptId,
    integrationId: w.integrationId,
  };
}

/** The modal's tabs and the fields each holds: a failed check opens the tab of its first field. */
export const TABS = ["general", "messages", "automation", "integration"] as const;
export type TabName = (typeof TABS)[number];
export const TAB_FIELDS: Record<TabName, FormField[]> = {
  general: ["name", "provider", "isDefault", "queueIds", "transferQueueId"],
  messages: ["greetingMessage", "complationMessage", "outOfHoursMessage", "ratingMessage"],
  automation: ["expiresTicket", "expiresInactiveMessage", "timeUseBotQueues", "maxUseBotQueues"],
  integration: ["promptId", "integrationId"],
};

export function tabOf(field: string): number {
  const i = TABS.findIndex((tab) => (TAB_FIELDS[tab] as string[]).includes(field));
  return i < 0 ? 0 : i;
}
