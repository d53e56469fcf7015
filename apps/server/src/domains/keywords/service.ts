import { blockedWordsMatcher, blockedWordsMessage, keywordKey, type Keyword } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import type { Sql } from "../../db/sql.js";
import * as repo from "./repository.js";

const notFound = () => new AppError("ERR_NOT_FOUND", "Palavra não encontrada");
const duplicate = () => new AppError("ERR_KEYWORD_DUPLICATE", "Esta palavra já está na lista.", { fields: { word: "Esta palavra já está na lista." } });

const present = (r: repo.KeywordRow): Keyword => ({ id: r.id, word: r.word, createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString() });

export async function listKeywords(ctx: AppContext, companyId: number): Promise<Keyword[]> {
  return (await repo.listKeywords(ctx.sql, companyId)).map(present);
}

/** Adds the words (one per line in the dialog); words already listed, or repeated, are left out. */
export async function addKeywords(ctx: AppContext, companyId: number, words: string[]): Promise<Keyword[]> {
  const byKey = new Map<string, string>();
  for (const word of words) if (!byKey.has(keywordKey(word))) byKey.set(keywordKey(word), word.replace(/\s+/g, " "));
  const rows = await repo.insertKeywords(ctx.sql, companyId, [...byKey].map(([key, word]) => ({ key, word })));
  if (!rows.length) throw duplicate();
  return rows.map(present);
}

export async function updateKeyword(ctx: AppContext, companyId: number, id: number, word: string): Promise<Keyword> {
  if (!(await repo.findKeyword(ctx.sql, companyId, id))) throw notFound();
  const key = keywordKey(word);
  if (await repo.keyTaken(ctx.sql, companyId, key, id)) throw duplicate();
  const row = await repo.updateKeyword(ctx.sql, companyId, id, word.replace(/\s+/g, " "), key);
  if (!row) throw notFound();
  return present(row);
}

export async function deleteKeyword(ctx: AppContext, companyId: number, id: number): Promise<void> {
  if (!(await repo.deleteKeyword(ctx.sql, companyId, id))) throw notFound();
}

/**
 * Refuses content with a listed word while the company's block list is on (Options → 'enableBlockList'),
 * naming the words: campaigns and templates call it with the texts they would send.
 */
export async function assertNoBlockedWords(sql: Sql, companyId: number, texts: readonly string[]): Promise<void> {
  const words = await repo.activeBlockList(sql, companyId);
  if (!words.length) return;
  const match = blockedWordsMatcher(words);
  const found = [...new Set(texts.flatMap(match))];
  if (found.length) throw new AppError("ERR_BLOCKED_WORDS", blockedWordsMessage(found), { words: found });
}

/** The company's block-list matcher while the list is on (null when off or empty): for checking many texts. */
export async function blockListMatcher(sql: Sql, companyId: number): Promise<((text: string) => string[]) | null> {
  const words = await repo.activeBlockList(sql, companyId);
  return words.length ? blockedWordsMatcher(words) : null;
}
