import type { SecretPlace } from "./sealer.js";

/**
 * Every column holding a stored credential, sealed with SecretSealer. The start-up step and the
 * rotation walk this list; a new credential column is added here (and sealed where it is written).
 * The credentials of SMTP, SMS (Twilio) and the PSP come from the environment and are not stored.
 */
export interface SealedColumn {
  table: string;
  column: string;
  /** SQL for the owning company (0: installation-wide). */
  company: string;
  /** The columns that name a row, in order (also the batches' walking order). */
  key: string[];
  /** The place of a value, from the row's company and key values. */
  place(companyId: number, key: unknown[]): SecretPlace;
}

function byId(table: string, column: string): SealedColumn {
  return { table, column, company: "company_id", key: ["id"], place: (companyId, key) => ({ companyId, column: `${table}.${column}`, row: Number(key[0]) }) };
}

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  // Cloud API: the Graph token, the app secret (webhook signatures) and the webhook verify token
  byId("businesses", "access_token"),
  byId("businesses", "app_secret"),
  byId("businesses", "verify_token"),
  // AI prompts: the provider's key and the text-to-speech key
  byId("prompts", "api_key"),
  byId("prompts", "voice_key"),
  // queue integrations: Dialogflow's service account
  byId("queue_integrations", "json_content_sealed"),
  // Baileys (unofficial WhatsApp): the paired device's credentials and signal keys, one row per key
  {
    table: "baileys_auth",
    column: "value",
    company: "company_id",
    key: ["whatsapp_id", "key"],
    place: (companyId, key) => baileysAuthPlace(companyId, Number(key[0]), String(key[1])),
  },
  // the PSP webhook URL's secret path segment (one per installation)
  { table: "pix_webhook_secret", column: "secret", company: "0", key: ["id"], place: () => PIX_WEBHOOK_SECRET_PLACE },
];

/** A Baileys connection's stored key (its row: the connection and the key's name). */
export function baileysAuthPlace(companyId: number, whatsappId: number, key: string): SecretPlace {
  return { companyId, column: "baileys_auth.value", row: `${whatsappId}/${key}` };
}

export const PIX_WEBHOOK_SECRET_PLACE: SecretPlace = { companyId: 0, column: "pix_webhook_secret.secret", row: "installation" };

/** The place of one of the columns above by its row id (table.column → place). */
export function placeOf(companyId: number, column: `${string}.${string}`, row: number): SecretPlace {
  return { companyId, column, row };
}

/**
 * The id a new row of a serial table will get, taken before the INSERT so its secrets can be sealed
 * for that row (the INSERT then names the id).
 */
export async function nextRowId(sql: { one<T>(text: string, params?: unknown[]): Promise<T> }, table: "businesses" | "prompts" | "queue_integrations"): Promise<number> {
  return (await sql.one<{ id: number }>("SELECT nextval(pg_get_serial_sequence($1, 'id'))::int AS id", [table])).id;
}
