import { randomBytes, scryptSync } from "node:crypto";
import { storedHash } from "../src/core/password.js";
import type { SecretSealer } from "../src/core/secrets/sealer.js";
import type { Sql } from "../src/db/sql.js";

export const TEST_PASSWORD = "secret123";

/**
 * The key ring of server tests and of the server processes they start (SECRETS_KEYS): made for tests
 * only, never used by an installation. Test apps seal stored credentials with it.
 */
export const TEST_SECRETS_KEYS = "test:DzTEgMwYWf1Wzj4ZTnhW1Y3bs1HZGtIbBnecLFFVoQg=";

let seq = 0;
const unique = (label: string) => `${label}-${process.pid}-${++seq}-${randomBytes(2).toString("hex")}`;

export interface PlanOverrides {
  users?: number;
  connections?: number;
  queues?: number;
  flags?: Partial<Record<"useCampaigns" | "useSchedules" | "useInternalChat" | "useExternalApi" | "useKanban" | "useOpenAi" | "useIntegrations", boolean>>;
}

export async function buildPlan(sql: Sql, o: PlanOverrides = {}): Promise<number> {
  const f = { useCampaigns: true, useSchedules: true, useInternalChat: true, useExternalApi: true, useKanban: true, useOpenAi: true, useIntegrations: true, ...o.flags };
  const row = await sql.one<{ id: number }>(
    `INSERT INTO plans (name, users, connections, queues, use_campaigns, use_schedules, use_internal_chat, use_external_api, use_kanban, use_open_ai, use_integrations)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11) RETURNING id`,
    [unique("plan"), o.users ?? 0, o.connections ?? 0, o.queues ?? 0, f.useCampaigns, f.useSchedules, f.useInternalChat, f.useExternalApi, f.useKanban, f.useOpenAi, f.useIntegrations],
  );
  return row.id;
}

export async function buildCompany(sql: Sql, o: { dueDate?: string | null; plan?: PlanOverrides; name?: string } = {}): Promise<number> {
  const planId = await buildPlan(sql, o.plan);
  const row = await sql.one<{ id: number }>(
    `INSERT INTO companies (name, email, plan_id, due_date) VALUES ($1, $2, $3, $4) RETURNING id`,
    [o.name ?? unique("company"), `${unique("c")}@company.test`, planId, o.dueDate === undefined ? "2099-12-31" : o.dueDate],
  );
  return row.id;
}

export interface BuiltUser {
  id: number;
  email: string;
  companyId: number;
}

export async function buildUser(
  sql: Sql,
  companyId: number,
  o: { profile?: "admin" | "supervisor" | "user"; super?: boolean; name?: string; email?: string; queueIds?: number[]; allTicket?: "enable" | "disable" } = {},
): Promise<BuiltUser> {
  const email = o.email ?? `${unique("u")}@user.test`;
  const row = await sql.one<{ id: number }>(
    `INSERT INTO users (company_id, name, email, password_hash, profile, super, all_ticket) VALUES ($1,$2,$3,$4,$5,$6,$7) RETURNING id`,
    [companyId, o.name ?? "Test User", email, cachedHash(), o.profile ?? "user", o.super ?? false, o.allTicket ?? "disable"],
  );
  for (const q of o.queueIds ?? []) {
    await sql.exec("INSERT INTO user_queues (company_id, user_id, queue_id) VALUES ($1,$2,$3)", [companyId, row.id, q]);
  }
  return { id: row.id, email, companyId };
}

/**
 * The stored hash of TEST_PASSWORD for users made by the factories: scrypt in the product's stored
 * form (`storedHash`, core/password.ts), at N=2^10 instead of the product's 2^15. The
 * login checks a hash with the cost written in it, so a test login costs ~3 ms instead of ~100 ms of
 * a whole core (the suites log in thousands of times); every password the product itself hashes
 * (sign-up, user forms, resets) keeps the full cost.
 */
const TEST_HASH_COST = { N: 1024, r: 8, p: 1 };
let testHash: string | undefined;
const cachedHash = () => {
  if (!testHash) {
    const salt = randomBytes(16);
    const key = scryptSync(TEST_PASSWORD, salt, 32, TEST_HASH_COST);
    testHash = storedHash(TEST_HASH_COST, salt, key);
  }
  return testHash;
};

export async function buildQueue(sql: Sql, companyId: number, o: { name?: string; color?: string } = {}): Promise<number> {
  const row = await sql.one<{ id: number }>("INSERT INTO queues (company_id, name, color) VALUES ($1,$2,$3) RETURNING id", [
    companyId,
    o.name ?? unique("Fila"),
    o.color ?? `#${randomBytes(3).toString("hex")}`,
  ]);
  return row.id;
}


/**
 * Writes credentials into a row as the server stores them: sealed for that row (core/secrets), e.g.
 * `sealStored(app.sql, app.ctx.secrets, "businesses", id, { access_token: "tok" })`.
 */
export async function sealStored(
  sql: Sql,
  secrets: SecretSealer,
  table: "businesses" | "prompts" | "queue_integrations",
  id: number,
  values: Record<string, string>,
): Promise<void> {
  const { company_id } = await sql.one<{ company_id: number }>(`SELECT company_id FROM ${table} WHERE id = $1`, [id]);
  for (const [column, plain] of Object.entries(values)) {
    if (!/^[a-z_]+$/.test(column)) throw new Error(`sealStored: bad column ${column}`);
    await sql.exec(`UPDATE ${table} SET ${column} = $2 WHERE id = $1`, [id, secrets.seal({ companyId: company_id, column: `${table}.${column}`, row: id }, plain)]);
  }
}

export interface FormPart {
  name: string;
  value?: string;
  file?: { name: string; type?: string; data: Buffer | string };
}

/** A multipart/form-data body as a browser sends it (fields and files; a file's type defaults to text/csv). */
export function multipartBody(parts: FormPart[]) {
  const boundary = "----atendeTestBoundary";
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if (p.file) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.file.name}"\r\nContent-Type: ${p.file.type ?? "text/csv"}\r\n\r\n`,
        ),
      );
      chunks.push(typeof p.file.data === "string" ? Buffer.from(p.file.data) : p.file.data);
      chunks.push(Buffer.from("\r\n"));
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value ?? ""}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}
