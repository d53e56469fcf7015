import type { SandboxMail } from "@atende/shared";
import { api } from "../../../lib/api";

export const SANDBOX_PAGE_SIZE = 20;
export const emailSandboxKeys = { list: (page: number, to: string) => ["email-sandbox", page, to] as const };

export const fetchSandboxMail = (page: number, to: string, signal?: AbortSignal) =>
  api<{ results: SandboxMail[]; count: number }>("/email/sandbox/", { query: { page, to: to || undefined }, signal });
