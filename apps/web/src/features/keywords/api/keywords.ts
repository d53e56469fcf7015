import type { Keyword } from "@atende/shared";
import { api } from "../../../lib/api";

export const keywordKeys = { all: ["keywords"] as const };

export function fetchKeywords(signal?: AbortSignal): Promise<Keyword[]> {
  return api<Keyword[]>("/keyword", { signal });
}

/** One word per line: returns the words added (those not listed yet). */
export function addKeywords(lines: string): Promise<Keyword[]> {
  return api<Keyword[]>("/keyword", { method: "POST", body: { word: lines } });
}

export function updateKeyword(id: number, word: string): Promise<Keyword> {
  return api<Keyword>(`/keyword/${id}`, { method: "PUT", body: { id, word } });
}

export function deleteKeyword(id: number): Promise<unknown> {
  return api(`/keyword/${id}`, { method: "DELETE" });
}
