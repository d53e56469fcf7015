import type { Sql } from "../../db/sql.js";

export interface PromptRow {
  id: number;
  company_id: number;
  name: string;
  prompt: string;
  api_key: string;
  base_url: string;
  model: string;
  voice: string;
  voice_key: string;
  voice_region: string;
  max_tokens: number;
  temperature: string;
  max_messages: number;
  queue_id: number;
  queue_name: string | null;
  queue_color: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface PromptValues {
  name: string;
  prompt: string;
  apiKey: string;
  baseUrl: string;
  model: string;
  voice: string;
  voiceKey: string;
  voiceRegion: string;
  maxTokens: number;
  temperature: number;
  maxMessages: number;
  queueId: number;
}

const SELECT = `SELECT p.id, p.company_id, p.name, p.prompt, p.api_key, p.base_url, p.model, p.voice, p.voice_key, p.voice_region,
  p.max_tokens, p.temperature, p.max_messages, p.queue_id, q.name AS queue_name, q.color AS queue_color, p.created_at, p.updated_at
  FROM prompts p LEFT JOIN queues q ON q.company_id = p.company_id AND q.id = p.queue_id`;

export function listPrompts(sql: Sql, companyId: number) {
  return sql.many<PromptRow>(`${SELECT} WHERE p.company_id = $1 ORDER BY p.name, p.id`, [companyId]);
}

export function findPrompt(sql: Sql, companyId: number, id: number) {
  return sql.maybe<PromptRow>(`${SELECT} WHERE p.company_id = $1 AND p.id = $2`, [companyId, id]);
}

export function queueExists(sql: Sql, companyId: number, queueId: number) {
  return sql.maybe<{ id: number }>("SELECT id FROM queues WHERE company_id = $1 AND id = $2", [companyId, queueId]);
}

const params = (v: PromptValues) => [v.name, v.prompt, v.apiKey, v.baseUrl, v.model, v.voice, v.voiceKey, v.voiceRegion, v.maxTokens, v.temperature, v.maxMessages, v.queueId];

/** `id` from nextRowId: the keys in `v` are sealed for that row. */
export async function insertPrompt(sql: Sql, companyId: number, id: number, v: PromptValues): Promise<number> {
  const row = await sql.one<{ id: number }>(
    `INSERT INTO prompts (id, company_id, name, prompt, api_key, base_url, model, voice, voice_key, voice_region, max_tokens, temperature, max_messages, queue_id)
     VALUES ($14, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
    [companyId, ...params(v), id],
  );
  return row.id;
}

export function updatePrompt(sql: Sql, companyId: number, id: number, v: PromptValues) {
  return sql.exec(
    `UPDATE prompts SET name = $3, prompt = $4, api_key = $5, base_url = $6, model = $7, voice = $8, voice_key = $9, voice_region = $10,
            max_tokens = $11, temperature = $12, max_messages = $13, queue_id = $14, updated_at = now()
      WHERE company_id = $1 AND id = $2`,
    [companyId, id, ...params(v)],
  );
}

/** Deletes the prompt and detaches it from the company's queues and connections. */
export function deletePrompt(sql: Sql, companyId: number, id: number) {
  return sql.tx(async (tx) => {
    await tx.exec("UPDATE queues SET prompt_id = NULL WHERE company_id = $1 AND prompt_id = $2", [companyId, id]);
    await tx.exec("UPDATE whatsapps SET prompt_id = NULL WHERE company_id = $1 AND prompt_id = $2", [companyId, id]);
    return tx.exec("DELETE FROM prompts WHERE company_id = $1 AND id = $2", [companyId, id]);
  });
}
