import type { Sql } from "../../db/sql.js";

export interface KeywordRow {
  id: number;
  word: string;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = "id, word, created_at, updated_at";

export function listKeywords(sql: Sql, companyId: number) {
  return sql.many<KeywordRow>(`SELECT ${COLUMNS} FROM keywords WHERE company_id = $1 ORDER BY word_key, id`, [companyId]);
}

/** Inserts the words not yet listed (compared by key); returns the inserted rows. */
export function insertKeywords(sql: Sql, companyId: number, words: { word: string; key: string }[]) {
  return sql.many<KeywordRow>(
    `INSERT INTO keywords (company_id, word, word_key)
     SELECT $1, w.word, w.key FROM unnest($2::text[], $3::text[]) AS w(word, key)
     ON CONFLICT (company_id, word_key) DO NOTHING
     RETURNING ${COLUMNS}`,
    [companyId, words.map((w) => w.word), words.map((w) => w.key)],
  );
}

export function findKeyword(sql: Sql, companyId: number, id: number) {
  return sql.maybe<KeywordRow>(`SELECT ${COLUMNS} FROM keywords WHERE company_id = $1 AND id = $2`, [companyId, id]);
}

export function keyTaken(sql: Sql, companyId: number, key: string, exceptId: number) {
  return sql.maybe<{ id: number }>("SELECT id FROM keywords WHERE company_id = $1 AND word_key = $2 AND id <> $3", [companyId, key, exceptId]);
}

export function updateKeyword(sql: Sql, companyId: number, id: number, word: string, key: string) {
  return sql.maybe<KeywordRow>(`UPDATE keywords SET word = $3, word_key = $4, updated_at = now() WHERE company_id = $1 AND id = $2 RETURNING ${COLUMNS}`, [
    companyId,
    id,
    word,
    key,
  ]);
}

export function deleteKeyword(sql: Sql, companyId: number, id: number) {
  return sql.exec("DELETE FROM keywords WHERE company_id = $1 AND id = $2", [companyId, id]);
}

/** The listed words when the company's block list is on; none when it is off. */
export async function activeBlockList(sql: Sql, companyId: number): Promise<string[]> {
  const rows = await sql.many<{ word: string }>(
    `SELECT k.word FROM keywords k
      WHERE k.company_id = $1
        AND EXISTS (SELECT 1 FROM settings s WHERE s.company_id = $1 AND s.key = 'enableBlockList' AND s.value = 'enabled')
      ORDER BY k.word_key`,
    [companyId],
  );
  return rows.map((r) => r.word);
}
