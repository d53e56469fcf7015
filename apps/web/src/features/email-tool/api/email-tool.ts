import type { SendEmailInput, SentEmail, SentEmailsPage } from "@atende/shared";
import { api } from "../../../lib/api";

export const sentEmailKeys = {
  all: ["sent-emails"] as const,
  page: (page: number) => ["sent-emails", page] as const,
};

/** POST /enviar-email: one recipient per call (spec 3 §7). The spec's tokenSenha is not sent: the server ignores it. */
export function sendEmail(input: SendEmailInput): Promise<SentEmail> {
  return api<SentEmail>("/enviar-email", { method: "POST", body: input });
}

/** GET /listar-emails-enviados: the company's sent e-mails, newest first, 5 a page. */
export function fetchSentEmails(page: number, signal?: AbortSignal): Promise<SentEmailsPage> {
  return api<SentEmailsPage>("/listar-emails-enviados", { query: { page }, signal });
}
