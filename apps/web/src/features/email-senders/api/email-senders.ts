import type { EmailSenderAdmin } from "@atende/shared";
import { api } from "../../../lib/api";

export const emailSenderKeys = { all: ["email-senders"] as const };

export const fetchSenders = (signal?: AbortSignal) => api<{ results: EmailSenderAdmin[]; count: number }>("/email/senders/all/", { signal });
export const addSender = (email_address: string) => api<EmailSenderAdmin>("/email/senders/", { method: "POST", body: { email_address } });
export const resendVerification = (id: number) => api<EmailSenderAdmin>(`/email/senders/${id}/resend/`, { method: "POST" });
export const deleteSender = (id: number) => api(`/email/senders/${id}/`, { method: "DELETE" });
