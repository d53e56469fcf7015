import { BufferJSON, initAuthCreds, proto, type AuthenticationCreds, type AuthenticationState, type SignalDataSet, type SignalDataTypeMap } from "baileys";
import type { Sql } from "../../db/sql.js";
import { reportedToCaller } from "../../core/ignore.js";
import { baileysAuthPlace } from "../../core/secrets/columns.js";
import type { SecretSealer } from "../../core/secrets/sealer.js";
import { fenced, type LeaseFence } from "../ownership.js";

/**
 * The paired device of a Baileys connection, kept in PostgreSQL (table baileys_auth) instead of the
 * library's folder of JSON files: one row for the credentials ('creds') and one per signal key
 * ('{type}-{id}'), serialised with BufferJSON so Buffers survive. Several processes never run the same
 * connection at once (the channel manager owns it), so rows are written without locking; with a
 * `fence` (the driver's lease) every write runs in a transaction that first checks the lease still
 * carries its epoch, so a process whose lease was taken over can no longer change the device's keys.
 * Every value is the device's key material or derived from it: sealed at rest (core/secrets), each
 * row bound to its connection and key.
 */
export interface PgAuthState {
  state: AuthenticationState;
  /** Writes the current credentials (call on every 'creds.update'). Calls are serialised. */
  saveCreds(): Promise<void>;
  /** Forgets the pairing: every row of the connection (logout). */
  clear(): Promise<void>;
}

const CREDS = "creds";
const keyName = (type: string, id: string) => `${type}-${id}`;

export const encodeValue = (value: unknown): string => JSON.stringify(value, BufferJSON.replacer);
export const decodeValue = <T = unknown>(text: string): T => JSON.parse(text, BufferJSON.reviver) as T;

/** A stored value, opened and decoded. */
function readValue<T = unknown>(secrets: SecretSealer, companyId: number, whatsappId: number, key: string, sealed: string): T {
  return decodeValue<T>(secrets.open(baileysAuthPlace(companyId, whatsappId, key), sealed));
}

/** Whether stored credentials exist for the connection (a paired device, or a QR in progress). */
export async function hasStoredCreds(sql: Sql, secrets: SecretSealer, companyId: number, whatsappId: number): Promise<boolean> {
  const row = await sql.maybe<{ value: string }>("SELECT value FROM baileys_auth WHERE company_id = $1 AND whatsapp_id = $2 AND key = $3", [
    companyId,
    whatsappId,
    CREDS,
  ]);
  if (!row) return false;
  return Boolean(readValue<AuthenticationCreds>(secrets, companyId, whatsappId, CREDS, row.value).me?.id);
}

export async function clearAuth(sql: Sql, companyId: number, whatsappId: number): Promise<void> {
  await sql.exec("DELETE FROM baileys_auth WHERE company_id = $1 AND whatsapp_id = $2", [companyId, whatsappId]);
}

/** The phone number (user part) of a LID from the library's own lid-mapping keys, or null. */
export async function storedPnForLid(sql: Sql, secrets: SecretSealer, companyId: number, whatsappId: number, lidUser: string): Promise<string | null> {
  const key = keyName("lid-mapping", `${lidUser}_reverse`);
  const row = await sql.maybe<{ value: string }>("SELECT value FROM baileys_auth WHERE company_id = $1 AND whatsapp_id = $2 AND key = $3", [
    companyId,
    whatsappId,
    key,
  ]);
  if (!row) return null;
  const pn = readValue<unknown>(secrets, companyId, whatsappId, key, row.value);
  return typeof pn === "string" && pn ? pn : null;
}

export async function usePgAuthState(sql: Sql, secrets: SecretSealer, companyId: number, whatsappId: number, fence?: LeaseFence): Promise<PgAuthState> {
  const write = <T>(fn: (s: Sql) => Promise<T>): Promise<T> => (fence ? fenced(sql, fence, fn) : sql.tx(fn));
  const stored = await sql.maybe<{ value: string }>("SELECT value FROM baileys_auth WHERE company_id = $1 AND whatsapp_id = $2 AND key = $3", [
    companyId,
    whatsappId,
    CREDS,
  ]);
  const creds: AuthenticationCreds = stored ? readValue<AuthenticationCreds>(secrets, companyId, whatsappId, CREDS, stored.value) : initAuthCreds();

  let writes: Promise<unknown> = Promise.resolve();
  const serialised = (fn: () => Promise<unknown>): Promise<void> => {
    const run = writes.then(fn, fn);
    writes = run.catch(reportedToCaller);
    return run.then(() => undefined);
  };

  const upsert = (s: Sql, keys: string[], plain: string[]) => {
    const values = plain.map((v, i) => secrets.seal(baileysAuthPlace(companyId, whatsappId, keys[i]!), v));
    return s.exec(
      `INSERT INTO baileys_auth (company_id, whatsapp_id, key, value)
       SELECT $1, $2, k, v FROM unnest($3::text[], $4::text[]) AS t(k, v)
       ON CONFLICT (company_id, whatsapp_id, key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [companyId, whatsappId, keys, values],
    );
  };

  const state: AuthenticationState = {
    creds,
    keys: {
      async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
        const out: { [id: string]: SignalDataTypeMap[T] } = {};
        if (!ids.length) return out;
        const rows = await sql.many<{ key: string; value: string }>(
          "SELECT key, value FROM baileys_auth WHERE company_id = $1 AND whatsapp_id = $2 AND key = ANY($3::text[])",
          [companyId, whatsappId, ids.map((id) => keyName(type, id))],
        );
        const byKey = new Map(rows.map((r) => [r.key, r.value]));
        for (const id of ids) {
          const text = byKey.get(keyName(type, id));
          if (text === undefined) continue;
          let value: unknown = readValue(secrets, companyId, whatsappId, keyName(type, id), text);
          if (type === "app-state-sync-key" && value) value = proto.Message.AppStateSyncKeyData.fromObject(value as object);
          out[id] = value as SignalDataTypeMap[T];
        }
        return out;
      },
      async set(data: SignalDataSet) {
        const keys: string[] = [];
        const values: string[] = [];
        const removed: string[] = [];
        for (const type of Object.keys(data) as (keyof SignalDataTypeMap)[]) {
          for (const [id, value] of Object.entries(data[type] ?? {})) {
            if (value === null || value === undefined) removed.push(keyName(type, id));
            else {
              keys.push(keyName(type, id));
              values.push(encodeValue(value));
            }
          }
        }
        if (!keys.length && !removed.length) return;
        await write(async (s) => {
          if (keys.length) await upsert(s, keys, values);
          if (removed.length) {
            await s.exec("DELETE FROM baileys_auth WHERE company_id = $1 AND whatsapp_id = $2 AND key = ANY($3::text[])", [
              companyId,
              whatsappId,
              removed,
            ]);
          }
        });
      },
      async clear() {
        await write((s) => s.exec("DELETE FROM baileys_auth WHERE company_id = $1 AND whatsapp_id = $2 AND key <> $3", [companyId, whatsappId, CREDS]));
      },
    },
  };

  return {
    state,
    saveCreds: () => serialised(() => write((s) => upsert(s, [CREDS], [encodeValue(creds)]))),
    clear: () => serialised(() => write((s) => clearAuth(s, companyId, whatsappId))),
  };
}
