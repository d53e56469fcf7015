import { z } from "zod";

/** AI prompts (spec 3 §3, §9): an OpenAI-compatible model answering a queue's or a connection's customers. */

/** "texto": answers are sent as text; otherwise an Azure Speech pt-BR neural voice reads them as audio. */
export const PROMPT_VOICES = [
  "texto",
  "pt-BR-FranciscaNeural",
  "pt-BR-AntonioNeural",
  "pt-BR-BrendaNeural",
  "pt-BR-DonatoNeural",
  "pt-BR-ElzaNeural",
  "pt-BR-FabioNeural",
  "pt-BR-GiovannaNeural",
  "pt-BR-HumbertoNeural",
  "pt-BR-JulioNeural",
  "pt-BR-LeilaNeural",
  "pt-BR-LeticiaNeural",
  "pt-BR-ManuelaNeural",
  "pt-BR-NicolauNeural",
  "pt-BR-ValerioNeural",
  "pt-BR-YaraNeural",
] as const;
export type PromptVoice = (typeof PROMPT_VOICES)[number];

export const PROMPT_DEFAULTS = { maxTokens: 100, temperature: 1, maxMessages: 10, baseUrl: "https://api.openai.com/v1", model: "gpt-4o-mini" } as const;
export const PROMPT_LIMITS = { maxTokens: 4096, maxMessages: 50, temperature: 2, promptLength: 10000 } as const;
/**
 * The hand-off convention: the model is told to answer exactly this marker (alone or within its reply)
 * when the customer asks for a person or it cannot help; the ticket then goes to the queue's agents.
 */
export const PROMPT_HANDOFF_MARKER = "#atendente";

const required = "Obrigatório";
const num = (min: number, max: number, int: boolean) => {
  const base = z.coerce.number({ error: "Número inválido" });
  return (int ? base.int("Número inválido") : base).min(min, `Mínimo ${min}`).max(max, `Máximo ${max}`);
};

export const promptInput = z.object({
  name: z.string({ error: required }).trim().min(1, required).max(100, "Too Long!"),
  prompt: z.string({ error: required }).trim().min(1, required).max(PROMPT_LIMITS.promptLength, "Too Long!"),
  /** Required on create; on update an empty or omitted key keeps the stored one. */
  apiKey: z.string().trim().max(500, "Too Long!").optional(),
  baseUrl: z
    .string()
    .trim()
    .max(500, "Too Long!")
    .refine((v) => v === "" || /^https?:\/\/[^\s]+$/i.test(v), "URL inválida")
    .optional(),
  model: z.string().trim().max(100, "Too Long!").optional(),
  voice: z.enum(PROMPT_VOICES, { error: "Voz inválida" }).default("texto"),
  /** Azure Speech key; an empty or omitted key on update keeps the stored one. */
  voiceKey: z.string().trim().max(500, "Too Long!").optional(),
  voiceRegion: z
    .string()
    .trim()
    .max(50, "Too Long!")
    .regex(/^[a-z0-9-]*$/i, "Região inválida")
    .optional()
    .default(""),
  maxTokens: num(1, PROMPT_LIMITS.maxTokens, true).default(PROMPT_DEFAULTS.maxTokens),
  temperature: num(0, PROMPT_LIMITS.temperature, false).default(PROMPT_DEFAULTS.temperature),
  maxMessages: num(1, PROMPT_LIMITS.maxMessages, true).default(PROMPT_DEFAULTS.maxMessages),
  queueId: z.coerce.number({ error: "Informe o setor" }).int("Informe o setor").positive("Informe o setor").max(2147483647, "Informe o setor"),
});
export type PromptInput = z.input<typeof promptInput>;

export const prompt = z.object({
  id: z.number(),
  name: z.string(),
  prompt: z.string(),
  /** Masked: the last 4 characters only. */
  apiKey: z.string(),
  baseUrl: z.string(),
  model: z.string(),
  voice: z.string(),
  /** Masked: the last 4 characters only. */
  voiceKey: z.string(),
  voiceRegion: z.string(),
  maxTokens: z.number(),
  temperature: z.number(),
  maxMessages: z.number(),
  queueId: z.number(),
  queue: z.object({ id: z.number(), name: z.string(), color: z.string() }).nullable(),
  companyId: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Prompt = z.infer<typeof prompt>;

/** GET /prompt */
export const promptsList = z.object({ prompts: z.array(prompt) });

/** Event on company-{id}-prompt (the company's sockets). */
export type PromptEvent = { action: "create" | "update"; prompt: Prompt } | { action: "delete"; promptId: number };
