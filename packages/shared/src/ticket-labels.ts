import type { Language } from "./limits.js";
import type { TicketStatus } from "./enums.js";

/**
 * A ticket's status and origin as people read them, per language: the reports screen's words
 * (apps/web reports locales hold the same texts, held together by a web test) and the server's CSV
 * exports use them, so a spreadsheet never shows `open` or `pending`.
 */
export const TICKET_STATUS_LABELS: Record<Language, Record<TicketStatus, string>> = {
  pt: { pending: "Aguardando", open: "Em atendimento", paused: "Pausado", closed: "Finalizado" },
  en: { pending: "Waiting", open: "In progress", paused: "Paused", closed: "Finished" },
  es: { pending: "En espera", open: "En atención", paused: "Pausado", closed: "Finalizado" },
};

/** Who started the conversation: the company (ativo) or the contact (receptivo). */
export const TICKET_ORIGIN_LABELS: Record<Language, Record<"ativo" | "receptivo", string>> = {
  pt: { ativo: "Ativo", receptivo: "Receptivo" },
  en: { ativo: "Outbound", receptivo: "Inbound" },
  es: { ativo: "Activo", receptivo: "Receptivo" },
};
