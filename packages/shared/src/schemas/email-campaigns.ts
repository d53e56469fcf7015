import { z } from "zod";
import { BR_DATE } from "./campaigns.js";

/** E-mail campaigns (spec 3 §2-§5, §7 "E-mail service", §9): statuses, labels, messages, shapes. */
export const EMAIL_CAMPAIGN_STATUSES = [
  "MISSING_FILE",
  "SPLITTING",
  "ANALYZING",
  "ACTIVE",
  "TRIGGERING",
  "RUNNING",
  "PAUSED",
  "FINISHED",
  "CANCELLED",
  "ERROR",
] as const;
export type EmailCampaignStatus = (typeof EMAIL_CAMPAIGN_STATUSES)[number];

/** Spec §4 labels (pt); anything else is 'Desconhecido'. */
export const EMAIL_CAMPAIGN_STATUS_LABELS: Record<EmailCampaignStatus, string> = {
  ACTIVE: "Ativa",
  SPLITTING: "Em Análise",
  ANALYZING: "Em Análise",
  MISSING_FILE: "Em Análise",
  TRIGGERING: "Processando",
  RUNNING: "Em Disparo",
  PAUSED: "Pausada",
  FINISHED: "Finalizada",
  CANCELLED: "Cancelada",
  ERROR: "Erro",
};

export function emailCampaignStatusLabel(status: string): string {
  return (EMAIL_CAMPAIGN_STATUS_LABELS as Record<string, string>)[status] ?? "Desconhecido";
}

/** Source (spec §3/§9): 1 = API, 2 = WEB. */
export const EMAIL_SOURCE = { API: 1, WEB: 2 } as const;

/** Spec §5 messages, verbatim, and the analysis' own. */
export const EMAIL_CAMPAIGN_MESSAGES = {
  senderRequired: "O remetente é obrigatório.",
  templateRequired: "O template é obrigatório.",
  senderNotFound: "Remetente não encontrado ou não verificado.",
  templateNotFound: "Template não encontrado.",
  notFound: "Campanha não encontrada.",
  notTriggerable: "Só é possível disparar uma campanha Ativa criada pela web.",
  notTriggerableByApi: "Pela API só é possível disparar uma campanha Ativa criada pela API.",
  notPausable: (status: string) => `A campanha não pode ser pausada no status ${emailCampaignStatusLabel(status)}.`,
  notResumable: (status: string) => `A campanha não pode ser retomada no status ${emailCampaignStatusLabel(status)}.`,
  notCancellable: (status: string) => `A campanha não pode ser cancelada no status ${emailCampaignStatusLabel(status)}.`,
  fileAlreadySent: "O arquivo desta campanha já foi enviado.",
  templateColumns: (names: readonly string[]) => `O arquivo não possui as colunas usadas pelo template: ${names.join(", ")}`,
} as const;

export const EMAIL_ROW_REASONS = {
  invalidEmail: "Endereço de e-mail inválido.",
  duplicate: (firstRow: number | string) => `E-mail duplicado (mesmo endereço na linha ${firstRow}).`,
  optedOut: "Endereço descadastrado (opt-out).",
  blockedWords: (words: readonly string[]) => `Contém palavras bloqueadas: ${words.join(", ")}.`,
  cancelled: "Campanha cancelada antes do envio.",
} as const;

export const EMAIL_CAMPAIGN_PAGE_SIZE = 40;
export const EMAIL_CAMPAIGN_SAMPLE_CSV = "telefone;cpf;email;nome\n5511999998888;12345678909;cliente@exemplo.com;Maria\n";

/** A pragmatic address check (RFC 5322 dot-atom local part, a dotted domain); the SMTP server has the last word. */
export const EMAIL_ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && EMAIL_ADDRESS.test(value) && !value.split("@")[0]!.startsWith(".") && !value.includes("..");
}

const emptyToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);
const dbId = z.coerce.number().int().positive().max(2_147_483_647);

/** POST /email/campaigns/: required fields are checked in the spec's order by the server (each its own code). */
export const emailCampaignCreateInput = z.object({
  title: z.preprocess(emptyToUndefined, z.string().max(200, "Too Long!").optional()).describe("The campaign's title"),
  filename: z.preprocess(emptyToUndefined, z.string().max(255).optional()).describe("The CSV's file name (must end in .csv)"),
  cost_center_id: z.preprocess(emptyToUndefined, dbId.optional()).describe("A cost center of the company"),
  sender: z.preprocess(emptyToUndefined, dbId.optional()).describe("A verified sender's id (GET /email/senders/)"),
  template: z.preprocess(emptyToUndefined, dbId.optional()).describe("An e-mail template's id"),
});
export type EmailCampaignCreateInput = z.input<typeof emailCampaignCreateInput>;

export const emailCampaignsQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(EMAIL_CAMPAIGN_PAGE_SIZE),
  start_date: z.preprocess(emptyToUndefined, z.string().regex(BR_DATE, "Data inválida (dd/MM/yyyy)").optional()),
  end_date: z.preprocess(emptyToUndefined, z.string().regex(BR_DATE, "Data inválida (dd/MM/yyyy)").optional()),
  status: z.preprocess(emptyToUndefined, z.enum(EMAIL_CAMPAIGN_STATUSES).optional()),
  cost_center_id: z.preprocess(emptyToUndefined, dbId.optional()),
});
export type EmailCampaignsQuery = z.input<typeof emailCampaignsQuery>;

export const emailCampaign = z.object({
  id: z.number(),
  title: z.string(),
  status: z.string(),
  source: z.number().describe("1 = API, 2 = WEB"),
  created_at: z.string(),
  cost_center_id: z.number(),
  cost_center_name: z.string(),
  sender_id: z.number().nullable(),
  sender: z.string(),
  template_id: z.number(),
  filename: z.string(),
  error_message: z.string(),
  total: z.number(),
  invalid: z.number(),
  count_emails_sent: z.number(),
  count_emails_delivered: z.number(),
  count_emails_opened: z.number(),
  count_emails_clicked: z.number(),
  count_emails_not_delivered: z.number(),
});
export type EmailCampaign = z.infer<typeof emailCampaign>;

export const emailCampaignCreated = emailCampaign.extend({ upload_url: z.string().describe("PUT the CSV here (text/csv, bearer token)") });

export const emailCampaignsPage = z.object({ results: z.array(emailCampaign), count: z.number(), next: z.number().nullable() });
export type EmailCampaignsPage = z.infer<typeof emailCampaignsPage>;

export interface EmailCampaignEvent {
  action: "create" | "update";
  campaign: EmailCampaign;
}

/** Delivery percent (spec §9): delivered / sent; 0 when nothing was sent. Shown with `formatPercent` (two decimals). */
export function emailDeliveryPercent(c: Pick<EmailCampaign, "count_emails_delivered" | "count_emails_sent">): number {
  return c.count_emails_sent > 0 ? (c.count_emails_delivered / c.count_emails_sent) * 100 : 0;
}

/** The row action (spec §4): MISSING_FILE, ANALYZING disabled; otherwise trigger, enabled only when ACTIVE and source 2. */
export function emailCampaignTriggerEnabled(c: Pick<EmailCampaign, "status" | "source">): boolean {
  return c.status === "ACTIVE" && c.source === EMAIL_SOURCE.WEB;
}

/** Statuses a pause accepts (sending, or about to); PAUSED answers as is. */
export const EMAIL_PAUSABLE = ["TRIGGERING", "RUNNING"] as const;
/** Statuses a resume accepts; RUNNING answers as is. */
export const EMAIL_RESUMABLE = ["PAUSED"] as const;
/** Statuses a cancel accepts (anything not ended); CANCELLED answers as is. */
export const EMAIL_CANCELLABLE = ["MISSING_FILE", "SPLITTING", "ANALYZING", "ACTIVE", "TRIGGERING", "RUNNING", "PAUSED"] as const;

/**
 * The row's action, spec §4 'E-mail' exactly: RUNNING disabled; MISSING_FILE or ANALYZING disabled;
 * otherwise trigger, enabled only when ACTIVE and source 2 (`emailCampaignTriggerEnabled`).
 */
export type EmailRowAction = "running" | "analyzing" | "trigger";

export function emailCampaignRowAction(c: Pick<EmailCampaign, "status">): EmailRowAction {
  if (c.status === "RUNNING") return "running";
  if (c.status === "MISSING_FILE" || c.status === "ANALYZING") return "analyzing";
  return "trigger";
}

export type EmailSecondaryAction = "pause" | "resume" | "cancel";

/**
 * Beyond the spec's row action, what an operator can still do with the campaign (the row's "more
 * actions" menu): pause while sending, resume while paused, cancel while not ended. The server
 * refuses the same moves outside these statuses (domains/email-campaigns/actions.ts).
 */
export function emailCampaignSecondaryActions(c: Pick<EmailCampaign, "status">): EmailSecondaryAction[] {
  const out: EmailSecondaryAction[] = [];
  if ((EMAIL_PAUSABLE as readonly string[]).includes(c.status)) out.push("pause");
  if ((EMAIL_RESUMABLE as readonly string[]).includes(c.status)) out.push("resume");
  if ((EMAIL_CANCELLABLE as readonly string[]).includes(c.status)) out.push("cancel");
  return out;
}

// ── senders ──
export const emailSender = z.object({ id: z.number(), email_address: z.string() });
export const emailSendersPage = z.object({ results: z.array(emailSender), count: z.number() });
export const emailSenderAdmin = emailSender.extend({ verified: z.boolean(), created_at: z.string(), verification_sent_at: z.string() });
export const emailSendersAdminPage = z.object({ results: z.array(emailSenderAdmin), count: z.number() });
export type EmailSenderAdmin = z.infer<typeof emailSenderAdmin>;
export const emailSenderInput = z.object({
  email_address: z.string().trim().toLowerCase().max(254).refine(isEmailAddress, "E-mail inválido").describe("The sender address to verify"),
});
export const emailSendersQuery = z.object({ all: z.preprocess((v) => v === "true" || v === "1" || v === true, z.boolean()).default(false) });

// ── sandbox mailbox ──
export const sandboxMail = z.object({
  id: z.number(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  html: z.string(),
  text: z.string(),
  headers: z.record(z.string(), z.string()),
  platform: z.boolean().describe("Sent by the platform (password reset, no company)"),
  created_at: z.string(),
});
export type SandboxMail = z.infer<typeof sandboxMail>;
export const sandboxMailPage = z.object({ results: z.array(sandboxMail), count: z.number() });
export const sandboxMailQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  to: z.preprocess(emptyToUndefined, z.string().max(254).optional()),
});
