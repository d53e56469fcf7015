import type { TestApp } from "../../../test/helper.js";
import { loadSmsConfig, type Config } from "../../config.js";

let seq = 0;

/** Config overrides for SMS tests: the sandbox provider with fast receipts, no failures, `rate` a second. */
export function smsTestConfig(o: { rate?: number; failureRate?: number; receiptMs?: number } = {}): Partial<Config> {
  const sms = loadSmsConfig({}, "test");
  return { sms: { ...sms, ratePerSecond: o.rate ?? 50, sandboxFailureRate: o.failureRate ?? 0, sandboxReceiptMs: o.receiptMs ?? 50 } };
}

/** A company's SMS prerequisites: two cost centers and templates with 0, 1 and 2 variables and one with a URL. */
export async function seedSmsWorld(app: TestApp, companyId: number) {
  const n = ++seq;
  const id = async (text: string, params: unknown[]) => (await app.sql.one<{ id: number }>(text, params)).id;
  const template = (title: string, content: string) =>
    id("INSERT INTO sms_templates (company_id, title, content) VALUES ($1, $2, $3) RETURNING id", [companyId, `${title} ${n}`, content]);
  return {
    costCenterId: await id("INSERT INTO cost_centers (company_id, name) VALUES ($1, $2) RETURNING id", [companyId, `SMS ${n}`]),
    otherCostCenterId: await id("INSERT INTO cost_centers (company_id, name) VALUES ($1, $2) RETURNING id", [companyId, `Cobrança ${n}`]),
    noVars: await template("Aviso", "Sua fatura chegou."),
    oneVar: await template("Olá", "Olá {{nome}}, tudo bem?"),
    twoVars: await template("Cobrança", "Olá {{nome}}, sua fatura vence em {{vencimento}}."),
    withUrl: await template("Link", "Oi {{nome}}, veja https://exemplo.com/oferta?id=7 hoje."),
  };
}
export type SmsWorld = Awaited<ReturnType<typeof seedSmsWorld>>;

export function smsForm(w: SmsWorld, o: Record<string, unknown> = {}) {
  return { title: "Campanha SMS", cost_center_id: w.costCenterId, template: w.twoVars, filename: "lista.csv", use_file: true, ...o };
}

export async function createSms(app: TestApp, token: string, body: Record<string, unknown>) {
  const res = await app.api("POST", "/api/sms/campaigns/", { token, body });
  return { status: res.statusCode, body: res.json() };
}

export async function uploadCsv(app: TestApp, token: string, url: string, csv: string | Buffer, type = "text/csv") {
  const res = await app.app.inject({ method: "PUT", url, payload: typeof csv === "string" ? Buffer.from(csv) : csv, headers: { authorization: `Bearer ${token}`, "content-type": type } });
  return { status: res.statusCode, body: res.json() };
}

/** Polls GET /api/sms/campaigns/:id/ until `done` holds (default: analysis over). */
export async function waitSms(app: TestApp, token: string, id: number, done: (c: Record<string, unknown>) => boolean = (c) => c.status !== "ANALYZING", timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.api("GET", `/api/sms/campaigns/${id}/`, { token });
    const body = res.json();
    if (done(body)) return body;
    if (Date.now() > until) throw new Error(`SMS campaign ${id} did not reach the expected state: ${res.body}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** POST + PUT + analysis: a READY (or SCHEDULED) campaign. */
export async function readySms(app: TestApp, token: string, w: SmsWorld, csv: string, o: Record<string, unknown> = {}) {
  const created = await createSms(app, token, smsForm(w, o));
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  const up = await uploadCsv(app, token, created.body.upload_url, csv);
  if (up.status !== 200) throw new Error(JSON.stringify(up.body));
  return waitSms(app, token, created.body.id);
}

/**
 * A READY campaign of `total` pending rows written straight to the database (phones
 * 55119<8 digits from `firstPhone`>), for the rate, crash and bench runs that need thousands of rows fast.
 */
export async function buildSmsCampaign(sql: TestApp["sql"], o: { companyId: number; total: number; firstPhone?: number; content?: string }) {
  const cc = await sql.one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, $2) RETURNING id", [o.companyId, `Bench ${++seq}`]);
  const tpl = await sql.one<{ id: number }>("INSERT INTO sms_templates (company_id, title, content) VALUES ($1, $2, $3) RETURNING id", [
    o.companyId,
    `Bench ${seq}`,
    o.content ?? "Olá {{nome}}, sua fatura vence amanhã.",
  ]);
  const c = await sql.one<{ id: number }>(
    `INSERT INTO sms_campaigns (company_id, title, status, cost_center_id, template_id, template_content, matrix_variables, file_name)
     SELECT $1, 'Bench', 'READY', $2, t.id, t.content, '[{"template_variable":"nome","file_index":3}]', 'bench.csv' FROM sms_templates t WHERE t.id = $3 RETURNING id`,
    [o.companyId, cc.id, tpl.id],
  );
  await sql.exec(
    `INSERT INTO sms_campaign_recipients (company_id, campaign_id, row_number, phone, variables, state)
     SELECT $1, $2, g, '55119' || lpad(($4 + g)::text, 8, '0'), ARRAY['', '', '', 'Cliente ' || g], 'pending' FROM generate_series(1, $3) AS g`,
    [o.companyId, c.id, o.total, o.firstPhone ?? 10_000_000],
  );
  return c.id;
}
