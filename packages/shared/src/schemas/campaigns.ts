import { z } from "zod";
import { LOCAL_DATE_TIME } from "../time-zone.js";
import type { CampaignHeaderRefusal } from "./campaign-file-header.js";

/** WhatsApp campaign statuses (spec 3 §4) and their Portuguese labels; anything else is 'Desconhecido'. */
export const CAMPAIGN_STATUSES = ["ANALYZING", "READY", "ERROR", "RUNNING", "WAITING", "PAUSED", "FINISHED", "CANCELLED"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const CAMPAIGN_STATUS_LABELS: Record<CampaignStatus, string> = {
  READY: "Ativa",
  ANALYZING: "Em Análise",
  ERROR: "Erro",
  RUNNING: "Em Disparo",
  FINISHED: "Finalizada",
  WAITING: "Aguardando",
  PAUSED: "Pausada",
  CANCELLED: "Cancelada",
};

export function campaignStatusLabel(status: string): string {
  return (CAMPAIGN_STATUS_LABELS as Record<string, string>)[status] ?? "Desconhecido";
}

/** Spec 3 §5 messages, verbatim; the analysis messages name what was found. */
export const CAMPAIGN_MESSAGES = {
  costCenterRequired: "O centro de custo é obrigatório.",
  titleRequired: "O título da campanha é obrigatório.",
  fileRequired: "O arquivo é obrigatório.",
  businessRequired: "O BM é obrigatório.",
  templateRequired: "O template é obrigatório.",
  queueRequired: "A fila é obrigatória.",
  extension: "Extensão não permitida.",
  tooBig: "O arquivo excede o tamanho máximo permitido.",
  separator: "O arquivo deve ter colunas separadas por ponto e vírgula (;).",
  encoding: (found: string) => `Codificação inválida: ${found}. Permitidos: ${CAMPAIGN_ENCODINGS.join(", ")}`,
  missingHeaders: (names: readonly string[]) => `Faltam os seguintes cabeçalhos obrigatórios: ${names.join(", ")}`,
  /** The header rule's refusal (campaign-file-header.ts) in the spec's words. */
  header: (r: CampaignHeaderRefusal) => (r.kind === "separator" ? CAMPAIGN_MESSAGES.separator : CAMPAIGN_MESSAGES.missingHeaders(r.missing)),
  variableColumns: (columns: number, variables: number) =>
    `O arquivo possui ${columns} colunas de variáveis, enquanto o template possui ${variables} variáveis.`,
  emptyFile: "O arquivo não possui linhas de dados.",
  unreadable: "Não foi possível ler o arquivo CSV.",
  lineTooLong: (line: number, max: number) => `A linha ${line} do arquivo passa de ${max} caracteres (verifique se há aspas sem fechamento).`,
  /** The analysis (a worker thread with a capped heap, CAMPAIGN_ANALYSIS_HEAP_MB) ran out of it. */
  analysisOutOfMemory: "Não foi possível analisar o arquivo: a análise excedeu o limite de memória do servidor. Avise o administrador do sistema.",
  /** The analysis's worker thread stopped without an answer (a defect, not the file's fault as far as we know). */
  analysisCrashed: "Não foi possível analisar o arquivo (a análise foi interrompida por uma falha interna). Crie a campanha novamente.",
  templateInvalid: "O template selecionado não pertence ao BM ou não está aprovado.",
  numberInvalid: "O número selecionado não pertence ao BM ou não está ativo.",
  noNumbers: "O BM não possui números ativos.",
  costCenterNotFound: "Centro de custo não encontrado.",
  queueNotFound: "Fila não encontrada.",
  botNotFound: "Bot não encontrado.",
  businessNotFound: "BM não encontrado.",
  notFound: "Campanha não encontrada.",
  notSchedulable: "Só é possível agendar uma campanha Ativa ou Pausada.",
  scheduleInPast: "A data do agendamento deve ser futura.",
} as const;

/** Row refusals of the analysis (campaign_recipients.invalid_reason). */
export const CAMPAIGN_ROW_REASONS = {
  invalidPhone: "Número de telefone inválido.",
  duplicate: (firstRow: number | string) => `Número duplicado (mesmo número na linha ${firstRow}).`,
  fewVariables: (found: number, needed: number) => `A linha possui ${found} variáveis preenchidas; o template precisa de ${needed}.`,
  /** While the company's block list is on (Keywords). */
  blockedWords: (words: readonly string[]) => `Contém palavras bloqueadas: ${words.join(", ")}.`,
} as const;

export const CAMPAIGN_ENCODINGS = ["utf-8", "iso-8859-1", "ascii"] as const;
export const CAMPAIGN_PAGE_SIZE = 20;
export const CAMPAIGN_SAMPLE_CSV = "telefone;cpf;email;var1;var2\n5511999998888;12345678909;cliente@exemplo.com;Maria;10/12\n";

/** dd/MM/yyyy (spec §7 list filters), read in the company's time zone. */
export const BR_DATE = /^(0[1-9]|[12]\d|3[01])\/(0[1-9]|1[0-2])\/(\d{4})$/;

const optionalText = z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().optional());

export const campaignsQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(CAMPAIGN_PAGE_SIZE),
  startDate: z.preprocess((v) => (v === "" ? undefined : v), z.string().regex(BR_DATE, "Data inválida (dd/MM/yyyy)").optional()),
  endDate: z.preprocess((v) => (v === "" ? undefined : v), z.string().regex(BR_DATE, "Data inválida (dd/MM/yyyy)").optional()),
  status: z.preprocess((v) => (v === "" ? undefined : v), z.enum(CAMPAIGN_STATUSES).optional()),
  costCenterId: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().positive().max(2_147_483_647).optional()),
});
export type CampaignsQuery = z.input<typeof campaignsQuery>;

export const campaign = z.object({
  id: z.number(),
  name: z.string(),
  status: z.string(),
  source: z.enum(["WEB", "API"]),
  createdAt: z.string(),
  costCenterId: z.number(),
  costCenterName: z.string(),
  businessId: z.number(),
  queueId: z.number().nullable(),
  accountViolation: z.string(),
  errorMessage: z.string(),
  fileName: z.string(),
  encoding: z.string(),
  countTotal: z.number(),
  countInvalid: z.number(),
  countExpired: z.number(),
  countProcessed: z.number(),
  countFailed: z.number(),
  countReplied: z.number(),
  countSent: z.number(),
  countDelivered: z.number(),
  countRead: z.number(),
  analysedRows: z.number(),
  scheduledAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  templateIds: z.array(z.number()),
  phoneIds: z.array(z.number()),
});
export type Campaign = z.infer<typeof campaign>;

export const campaignsPage = z.object({ data: z.array(campaign), countPages: z.number() });
export type CampaignsPage = z.infer<typeof campaignsPage>;

/**
 * POST /campaigns text fields (multipart). Required-field messages are checked in spec order by the
 * server (campaignCreateRefusal) so each missing field answers its own code and message.
 */
const idList = z.preprocess(
  (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
  z.array(z.coerce.number().int().positive().max(2_147_483_647)),
);
export const campaignCreateFields = z.object({
  title: z.string().trim().max(200, "Too Long!"),
  costCenterId: z.coerce.number().int().positive().max(2_147_483_647),
  costCenterName: optionalText,
  businessIds: idList,
  templateIds: idList,
  phoneIds: idList,
  queueId: z.coerce.number().int().positive().max(2_147_483_647),
  integrationId: z.preprocess((v) => (v === "" || v === "null" ? undefined : v), z.coerce.number().int().positive().max(2_147_483_647).optional()),
  /** Wall-clock time in the company's zone (2026-11-24T09:30) or an instant with offset. */
  scheduledAt: z.preprocess((v) => (v === "" ? undefined : v), z.union([z.string().regex(LOCAL_DATE_TIME), z.iso.datetime({ offset: true })]).optional()),
});
export type CampaignCreateFields = z.output<typeof campaignCreateFields>;

export const campaignScheduleInput = z.object({
  scheduledAt: z.union([z.string().regex(LOCAL_DATE_TIME, "Data inválida"), z.iso.datetime({ offset: true, error: "Data inválida" })], { error: "Data inválida" }),
});
export type CampaignScheduleInput = z.infer<typeof campaignScheduleInput>;

export const CAMPAIGN_RECIPIENT_STATES = ["invalid", "pending", "sending", "sent", "delivered", "read", "failed", "expired"] as const;

export const campaignRecipientsQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  state: z.preprocess((v) => (v === "" ? undefined : v), z.enum(CAMPAIGN_RECIPIENT_STATES).optional()),
});

export const campaignRecipient = z.object({
  id: z.number(),
  rowNumber: z.number(),
  phone: z.string(),
  cpf: z.string(),
  email: z.string(),
  state: z.enum(CAMPAIGN_RECIPIENT_STATES),
  invalidReason: z.string(),
  errorCode: z.number().nullable(),
  errorMessage: z.string(),
});
export const campaignRecipientsPage = z.object({ data: z.array(campaignRecipient), countPages: z.number(), count: z.number() });
export type CampaignRecipientsPage = z.infer<typeof campaignRecipientsPage>;

/** Payload of company-{id}-campaign-created (and campaign-updated): the campaign as the list shows it. */
export interface CampaignEvent {
  action: "create" | "update";
  campaign: Campaign;
}

/** Delivery percent of the list (spec §9): delivered / (total − invalid); 0 when nothing is valid. Shown with `formatPercent` (two decimals). */
export function campaignDeliveryPercent(c: Pick<Campaign, "countDelivered" | "countTotal" | "countInvalid">): number {
  const base = c.countTotal - c.countInvalid;
  return base > 0 ? (c.countDelivered / base) * 100 : 0;
}

/**
 * The row action of the list (spec §4): FINISHED a disabled check; ERROR an error icon; RUNNING pause;
 * WAITING a disabled button; otherwise start, disabled when ANALYZING, or when not READY and nothing
 * has been processed.
 */
export type CampaignRowAction =
  | { kind: "finished" }
  | { kind: "error"; message: string }
  | { kind: "pause" }
  | { kind: "waiting" }
  | { kind: "start"; disabled: boolean };

export function campaignRowAction(c: Pick<Campaign, "status" | "countProcessed" | "errorMessage">): CampaignRowAction {
  switch (c.status) {
    case "FINISHED":
      return { kind: "finished" };
    case "ERROR":
      return { kind: "error", message: c.errorMessage };
    case "RUNNING":
      return { kind: "pause" };
    case "WAITING":
      return { kind: "waiting" };
    default:
      return { kind: "start", disabled: c.status === "ANALYZING" || (c.status !== "READY" && c.countProcessed === 0) };
  }
}
