import { z } from "zod";

/** Keywords (spec 3 §3, §5, §9): the company's blocked words, at least 2 characters. */
export const KEYWORD_MIN = 2;
export const KEYWORD_MAX = 100;
export const KEYWORD_MESSAGES = {
  tooShort: "A palavra deve ter pelo menos 2 caracteres.",
  required: "Obrigatório",
} as const;

/** A word as compared: lower case, accents removed, inner spaces collapsed. */
export function keywordKey(word: string): string {
  return word
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .trim()
    .replace(/\s+/g, " ");
}

const oneWord = z.string().trim().min(1, KEYWORD_MESSAGES.required).min(KEYWORD_MIN, KEYWORD_MESSAGES.tooShort).max(KEYWORD_MAX, "Too Long!");

/** Adding: one word per line (several at once); blank lines are ignored. */
export const keywordCreateInput = z.object({
  word: z
    .string({ error: KEYWORD_MESSAGES.required })
    .transform((v) => v.split(/\r?\n/).map((w) => w.trim()).filter(Boolean))
    .pipe(z.array(oneWord).min(1, KEYWORD_MESSAGES.required).max(500)),
});
/** Editing: one word (the spec's front end also sends the id). */
export const keywordUpdateInput = z.object({ id: z.coerce.number().optional(), word: z.string({ error: KEYWORD_MESSAGES.required }).pipe(oneWord) });

export const keyword = z.object({ id: z.number(), word: z.string(), createdAt: z.string(), updatedAt: z.string() });
export type Keyword = z.infer<typeof keyword>;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A matcher of the blocked words (compiled once, for checking many texts): compared without case or
 * accents, as whole words (a word inside a longer word does not count: 'pix' blocks 'o PIX' and 'pix!'
 * but not 'pixel'). Each word found once, in the list's order.
 */
export function blockedWordsMatcher(words: readonly string[]): (text: string) => string[] {
  const patterns = words
    .map((word) => ({ word, key: keywordKey(word) }))
    .filter((w) => w.key)
    .map(({ word, key }) => ({ word, re: new RegExp(`(^|[^\\p{L}\\p{N}])${escape(key).replace(/ /g, "\\s+")}(?=$|[^\\p{L}\\p{N}])`, "u") }));
  return (text) => {
    if (!patterns.length || !text) return [];
    const hay = keywordKey(text);
    const found: string[] = [];
    for (const { word, re } of patterns) if (re.test(hay) && !found.includes(word)) found.push(word);
    return found;
  };
}

/** The blocked words a text contains (see blockedWordsMatcher). */
export function findBlockedWords(text: string, words: readonly string[]): string[] {
  return blockedWordsMatcher(words)(text);
}

/** The refusal's text naming the words (spec: the words named in the refusal). */
export const blockedWordsMessage = (words: readonly string[]) => `O conteúdo contém palavras bloqueadas: ${words.join(", ")}.`;
