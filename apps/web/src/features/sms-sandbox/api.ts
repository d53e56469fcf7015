import type { SmsSandboxPage } from "@atende/shared";
import { api } from "../../lib/api";

export const smsSandboxKeys = { page: (page: number) => ["sms-sandbox", page] as const };

export const fetchSandboxMessages = (page: number, signal?: AbortSignal) => api<SmsSandboxPage>("/sms/sandbox/messages/", { query: { page }, signal });
export const replyToSandboxMessage = (id: number, text: string) => api<{ optedOut: boolean }>(`/sms/sandbox/messages/${id}/reply/`, { method: "POST", body: { text } });
