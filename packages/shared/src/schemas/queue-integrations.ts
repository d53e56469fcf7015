import { z } from "zod";

/** Queue integrations (spec 3 §3, §5, §9): bots that answer a ticket of a queue or connection until an agent takes it. */
export const QUEUE_INTEGRATION_TYPES = ["dialogflow", "n8n", "webhook", "typebot"] as const;
export type QueueIntegrationType = (typeof QUEUE_INTEGRATION_TYPES)[number];
export const DIALOGFLOW_LANGUAGES = ["pt-BR", "en", "es"] as const;
/** Typebot defaults (spec 3 §9): a session ends after 1 minute without messages; 1000 ms between bubbles. */
export const TYPEBOT_DEFAULTS = { expires: 1, delayMessage: 1000 } as const;

const required = "Obrigatório";
const url = z
  .string()
  .trim()
  .max(500, "Too Long!")
  .refine((v) => v === "" || /^https?:\/\/[^\s]+$/i.test(v), "URL inválida");

/**
 * The add/edit form. `urlN8N` is the address of every HTTP type: the n8n or webhook URL the message is
 * POSTed to, and for Typebot the base URL of its viewer (…/api/v1/typebots/{slug}/startChat is called on it).
 * `jsonContent` (Dialogflow's service-account key) may be left empty on edit to keep the stored one.
 */
export const queueIntegrationInput = z
  .object({
    type: z.enum(QUEUE_INTEGRATION_TYPES, { error: required }),
    name: z.string({ error: required }).trim().min(1, required).min(2, "Too Short!").max(50, "Too Long!"),
    projectName: z.string().trim().max(100, "Too Long!").optional().default(""),
    jsonContent: z.string().trim().max(20000, "Too Long!").optional().default(""),
    language: z.enum(DIALOGFLOW_LANGUAGES).optional().default("pt-BR"),
    urlN8N: url.optional().default(""),
    typebotSlug: z.string().trim().max(100, "Too Long!").optional().default(""),
    typebotExpires: z.coerce.number().int().min(0).max(10080).optional().default(TYPEBOT_DEFAULTS.expires),
    typebotDelayMessage: z.coerce.number().int().min(0).max(60000).optional().default(TYPEBOT_DEFAULTS.delayMessage),
    typebotKeywordFinish: z.string().trim().max(100, "Too Long!").optional().default(""),
    typebotKeywordRestart: z.string().trim().max(100, "Too Long!").optional().default(""),
    typebotUnknownMessage: z.string().trim().max(1000, "Too Long!").optional().default(""),
    typebotRestartMessage: z.string().trim().max(1000, "Too Long!").optional().default(""),
  })
  .superRefine((v, c) => {
    if (v.type !== "dialogflow" && !v.urlN8N) c.addIssue({ code: "custom", path: ["urlN8N"], message: required });
    if (v.type === "typebot" && !v.typebotSlug) c.addIssue({ code: "custom", path: ["typebotSlug"], message: required });
    if (v.type === "dialogflow" && !v.projectName) c.addIssue({ code: "custom", path: ["projectName"], message: required });
  });
export type QueueIntegrationInput = z.input<typeof queueIntegrationInput>;

export const queueIntegration = z.object({
  id: z.number(),
  type: z.enum(QUEUE_INTEGRATION_TYPES),
  name: z.string(),
  projectName: z.string(),
  /** Never the stored key: "" or its mask (client_email and the key's last characters). */
  jsonContent: z.string(),
  language: z.string(),
  urlN8N: z.string(),
  typebotSlug: z.string(),
  typebotExpires: z.number(),
  typebotDelayMessage: z.number(),
  typebotKeywordFinish: z.string(),
  typebotKeywordRestart: z.string(),
  typebotUnknownMessage: z.string(),
  typebotRestartMessage: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type QueueIntegration = z.infer<typeof queueIntegration>;

export const queueIntegrationsQuery = z.object({
  searchParam: z.string().max(200).optional().default(""),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  /** "all": every integration in one answer (queue and connection dialogs). */
  limit: z.enum(["all"]).optional(),
});
export const queueIntegrationsPage = z.object({ queueIntegrations: z.array(queueIntegration), count: z.number(), hasMore: z.boolean() });
export type QueueIntegrationsPage = z.infer<typeof queueIntegrationsPage>;

/** POST /queueIntegration/testSession: one detectIntent call with the given key (or the stored one of `id`). */
export const queueIntegrationTestInput = z.object({
  projectName: z.string({ error: required }).trim().min(1, required).max(100),
  jsonContent: z.string().trim().max(20000).optional().default(""),
  language: z.enum(DIALOGFLOW_LANGUAGES).optional().default("pt-BR"),
  /** An integration whose stored key is used when jsonContent is empty. */
  id: z.coerce.number().int().positive().optional(),
});
export const queueIntegrationTestResult = z.object({ ok: z.literal(true), reply: z.string() });

/** Event on company-{id}-queueIntegration (supers of the company). */
export type QueueIntegrationEvent = { action: "create" | "update"; queueIntegration: QueueIntegration } | { action: "delete"; integrationId: number };
