import type { Help, HelpInput } from "@atende/shared";
import { api } from "../../../lib/api";

export const helpKeys = { all: ["settings", "helps"] as const };

export function fetchHelps(): Promise<Help[]> {
  return api<Help[]>("/helps/list");
}

export function createHelp(input: HelpInput): Promise<Help> {
  return api<Help>("/helps", { method: "POST", body: input });
}

export function updateHelp(id: number, input: HelpInput): Promise<Help> {
  return api<Help>(`/helps/${id}`, { method: "PUT", body: input });
}

export function deleteHelp(id: number): Promise<unknown> {
  return api(`/helps/${id}`, { method: "DELETE" });
}
