import { z } from "zod";
import { BR_DATE } from "./campaigns.js";

/** SMS campaigns (spec 3 §2-§5, §7 'SMS service', §9; docs/architecture.md "SMS campaigns"). */

export const SMS_CAMPAIGN_STATUSES = ["MISSING_FILE", "ANALYZING", "READY", "ACTIVE", "SCHEDULED", "RUNNING", "PAUSED", "FINISHED", "CANCELLED", "ERROR"] as const;
export type SmsCampaignStatus = (typeof SMS_CAMPAIGN_STATUSES)[number];

/** Spec 3 §4 'SMS': ACTIVE and READY Ativa, MISSING_FILE and ANALYZING Em Análise, SCHEDULED Agendada. */
export const SMS_CAMPAIGN_STATUS_LABELS: Record<SmsCampaignStatus, string> = {
  MISSING_FILE: "Em Análise",
  ANALYZING: "Em Análise",
  READY: "Ativa",
  ACTIVE: "Ativa",
  SCHEDULED: "Agendada",
  RUNNING: "Em Disparo",
  PAUSED: "Pausada",
  FINISHED: "Finalizada",
  CANCELLED: "Cancelada",
  ERROR: "Erro",
};

export function smsCampaignStatusLabel(status: string): string {
  return (SMS_CAMPAIGN_STATUS_LABELS as Record<string, string>)[status] ?? "Desconhecido";
}

export type SmsRowAction = "pause" | "scheduled" | "disabled" | "resume" | "trigger" | "none";

/**
 * Spec 3 §4 'Row action by status', SMS: RUNNING pause; SCHEDULED a scheduled icon; MISSING_FILE or
 * ANALYZING disabled; PAUSED resume; otherwise trigger. The server refuses a trigger in FINISHED,
 * CANCELLED and ERROR (nothing left to send), so the list shows no button there ("none").
 */
export function smsCampaignRowAction(status: string): SmsRowAction {
  if (status === "RUNNING") return "pause";
  if (status === "SCHEDULED") return "scheduled";
  if (status === "MISSING_FILE" || status === "ANALYZING") return "disabled";
  if (status === "PAUSED") return "resume";
  if (status === "FINISHED" || status === "CANCELLED" || status === "ERROR") return "none";
  return "trigger";
}

/** Statuses a trigger (start now) accepts; SCHEDULED starts at once and loses its timer. */
export const SMS_TRIGGERABLE = ["READY", "ACTIVE", "SCHEDULED"] as const;
/** Statuses a cancel accepts (anything not ended). */
export const SMS_CANCELLABLE = ["MISSING_FILE", "ANALYZING", "READY", "ACTIVE", "SCHEDULED", "RUNNING", "PAUSED"] as const;

/** Spec 3 §5 messages (verbatim) and the few the SMS service adds. */
export const SMS_CAMPAIGN_MESSAGES = {
  costCenterRequired: "O centro de custo é obrigatório.",
  titleRequired: "O título da campanha é obrigatório.",
  fileRequired: "O arquivo é obrigatório.",
  templateRequired: "O template é obrigatório.",
  startHourRequired: "A hora de início é obrigatória se a hora de término for preenchida.",
  endHourRequired: "A hora de término é obrigatória se a hora de início for preenchida.",
  hourInvalid: "Hora inválida (HH:mm).",
  sameHours: "A hora de início e a de término devem ser diferentes.",
  variableColumns: (columns: number, variables: number) =>
    `O arquivo possui ${columns} colunas de variáveis, enquanto o template possui ${variables} variáveis.`,
  matrixIndex: "As variáveis do template vêm das colunas a partir da 4ª (índice 3).",
  matrixUnknown: (name: string) => `A variável ${name} não existe no template.`,
  templateNotFound: "Template não encontrado.",
  costCenterNotFound: "Centro de custo não encontrado.",
  notFound: "Campanha não encontrada.",
  notWaitingFile: "A campanha já recebeu o arquivo.",
  scheduleInPast: "A data do agendamento deve ser futura.",
  notTriggerable: (status: string) => `A campanha não pode ser disparada no status ${status}.`,
  notPausable: (status: string) => `A campanha não pode ser pausada no status ${status}.`,
  notResumable: (status: string) => `A campanha não pode ser retomada no status ${status}.`,
  notCancellable: (status: string) => `A campanha não pode ser cancelada no status ${status}.`,
} as const;

/** Why a recipient row is not sent (sms_campaign_recipients.invalid_reason). */
export const SMS_ROW_REASONS = {
  invalidPhone: "Número de telefone inválido.",
  duplicate: (firstRow: number | string) => `Número duplicado (mesmo número na linha ${firstRow}).`,
  optedOut: "Número descadastrado (pediu para não receber mais mensagens).",
  notWhitelisted: "Número fora da lista de contatos da empresa (whitelist).",
  blacklisted: "Número com falha permanente em campanha anterior (blacklist).",
  cancelled: "Campanha cancelada antes do envio.",
} as const;

export const SMS_PAGE_SIZE = 40;
export const SMS_CAMPAIGN_SAMPLE_CSV = "telefone;cpf;email;nome;vencimento\n5511999998888;12345678909;cliente@exemplo.com;Maria;10/12\n";

/** "HH:mm" or "H" (an hour); minutes after midnight, or null when empty. */
export function parseSmsHour(value: unknown): number | null | "invalid" {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value === "number") return Number.isInteger(value) && value >= 0 && value <= 23 ? value * 60 : "invalid";
  if (typeof value !== "string") return "invalid";
  const m = /^([01]?\d|2[0-3])(?::([0-5]\d))?(?::00)?$/.exec(value.trim());
  return m ? Number(m[1]) * 60 + Number(m[2] ?? 0) : "invalid";
}

export const formatSmsMinute = (m: number | null) => (m === null ? null : `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`);

const optionalId = z.preprocess((v) => (v === "" || v === null ? undefined : v), z.coerce.number().int().positive().max(2_147_483_647).optional());
const flag = z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean().optional().default(false));

/**
 * POST /api/sms/campaigns/ (spec 3 §7). Required fields are checked by the server in the spec's
 * order with the spec's messages, so they are optional here.
 */
export const smsCampaignCreateInput = z.object({
  title: z.string().max(200, "Too Long!").optional().describe("Campaign title (required)"),
  cost_center_id: optionalId.describe("Cost center id (required)"),
  template: optionalId.describe("SMS template id (required)"),
  filename: z.string().max(255).optional().describe("The CSV's name; sent afterwards with PUT upload_url"),
  use_file: flag.describe("Always true: recipients come from the CSV"),
  use_whitelist: flag.describe("Send only to numbers already among the company's contacts"),
  use_blacklist_nexus: flag.describe("Skip numbers that failed permanently in an earlier SMS campaign of the company"),
  use_shortener_url: flag.describe("Replace URLs in the text with tracked short links"),
  tags: z.array(z.string().trim().min(1).max(60)).max(20).optional().default([]),
  contact_variable_index: z.coerce.number().int().min(0).max(2).optional().default(0),
  cpf_variable_index: z.coerce.number().int().min(0).max(2).optional().default(1),
  matrix_variables: z
    .array(z.object({ template_variable: z.string().min(1).max(100), file_index: z.coerce.number().int().min(0).max(500) }))
    .max(100)
    .optional()
    .default([]),
  schedule_date: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().max(40).optional()).describe("yyyy-MM-ddTHH:mm (company zone) or an ISO instant"),
  start_hour: z.union([z.string().max(8), z.number(), z.null()]).optional().describe("HH:mm, company zone"),
  end_hour: z.union([z.string().max(8), z.number(), z.null()]).optional().describe("HH:mm, company zone"),
});
export type SmsCampaignCreateInput = z.input<typeof smsCampaignCreateInput>;

/** One campaign as the report lists it (spec 3 §3 'SMS campaign', plus what the screens need). */
export const smsCampaign = z.object({
  id: z.number(),
  title: z.string(),
  status: z.string(),
  source: z.enum(["WEB", "API"]),
  created_at: z.string(),
  cost_center: z.string(),
  cost_center_id: z.number(),
  template: z.number(),
  total: z.number(),
  invalid: z.number(),
  triggered: z.number(),
  delivered: z.number(),
  not_delivered: z.number(),
  clicks: z.number(),
  accountViolation: z.string(),
  countProcessed: z.number(),
  error_message: z.string(),
  tags: z.array(z.string()),
  use_whitelist: z.boolean(),
  use_blacklist_nexus: z.boolean(),
  use_shortener_url: z.boolean(),
  schedule_date: z.string().nullable(),
  start_hour: z.string().nullable(),
  end_hour: z.string().nullable(),
  /** RUNNING but outside its daily window right now: it waits and resumes by itself. */
  outside_window: z.boolean(),
  filename: z.string(),
  upload_url: z.string().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type SmsCampaign = z.infer<typeof smsCampaign>;

const optionalDate = z.preprocess((v) => (v === "" ? undefined : v), z.string().regex(BR_DATE, "Data inválida (dd/MM/yyyy)").optional());

export const smsReportQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(SMS_PAGE_SIZE),
  start_date: optionalDate,
  end_date: optionalDate,
  status: z.preprocess((v) => (v === "" ? undefined : v), z.enum(SMS_CAMPAIGN_STATUSES).optional()),
  cost_center_id: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().positive().max(2_147_483_647).optional()),
});
export type SmsReportQuery = z.input<typeof smsReportQuery>;

export const smsReportPage = z.object({ results: z.array(smsCampaign), count: z.number() });
export type SmsReportPage = z.infer<typeof smsReportPage>;

export const successResponse = z.object({ success: z.boolean() });

/** A message of the sandbox provider (the /sms-sandbox page). */
export const smsSandboxMessage = z.object({
  id: z.number(),
  to: z.string(),
  body: z.string(),
  segments: z.number(),
  status: z.string(),
  reply: z.string().nullable(),
  created_at: z.string(),
});
export type SmsSandboxMessage = z.infer<typeof smsSandboxMessage>;
export const smsSandboxPage = z.object({ results: z.array(smsSandboxMessage), count: z.number() });
export type SmsSandboxPage = z.infer<typeof smsSandboxPage>;
export const smsSandboxQuery = z.object({ page: z.coerce.number().int().min(1).max(1_000_000).default(1) });
export const smsSandboxReplyInput = z.object({ text: z.string().trim().min(1, "Required").max(1600) });
export const smsSandboxReplyResult = z.object({ optedOut: z.boolean() });

/** Socket payload of sms-campaign-created / sms-campaign-updated. */
export interface SmsCampaignEvent {
  action: "create" | "update";
  campaign: SmsCampaign;
}

/** GET /api/sms/campaign-templates/: the SMS templates a campaign may use, with their variables and segment count. */
export const smsCampaignTemplate = z.object({
  id: z.number(),
  title: z.string(),
  content: z.string(),
  variables: z.array(z.string()),
  encoding: z.enum(["GSM-7", "UCS-2"]),
  segments: z.number(),
});
export type SmsCampaignTemplate = z.infer<typeof smsCampaignTemplate>;
export const smsCampaignTemplatesQuery = z.object({ title: z.string().max(200).optional() });
