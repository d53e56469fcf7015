import type { Sql } from "../../db/sql.js";

/**
 * Campaign rows for the dispatch tests, written straight to the tables (the campaigns domain owns the
 * upload and analysis that normally create them).
 */
export async function buildCampaign(
  sql: Sql,
  o: {
    companyId: number;
    businessId: number;
    templateIds: number[];
    numberIds?: number[];
    queueId?: number | null;
    phones: string[];
    variables?: (i: number) => string[];
    status?: string;
    name?: string;
  },
): Promise<number> {
  const cc = await sql.one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, 'Centro') RETURNING id", [o.companyId]);
  const c = await sql.one<{ id: number }>(
    `INSERT INTO campaigns (company_id, name, status, cost_center_id, business_id, queue_id, count_total)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [o.companyId, o.name ?? "Campanha", o.status ?? "READY", cc.id, o.businessId, o.queueId ?? null, o.phones.length],
  );
  for (const [position, templateId] of o.templateIds.entries()) {
    await sql.exec("INSERT INTO campaign_templates (company_id, campaign_id, template_id, position) VALUES ($1, $2, $3, $4)", [
      o.companyId,
      c.id,
      templateId,
      position,
    ]);
  }
  for (const n of o.numberIds ?? []) {
    await sql.exec("INSERT INTO campaign_numbers (company_id, campaign_id, official_number_id) VALUES ($1, $2, $3)", [o.companyId, c.id, n]);
  }
  const vars = o.variables ?? ((i: number) => [`Cliente ${i + 1}`, `PED-${i + 1}`]);
  await sql.exec(
    `INSERT INTO campaign_recipients (company_id, campaign_id, row_number, phone, variables)
     SELECT $1, $2, x.n + 1, x.phone, ARRAY(SELECT jsonb_array_elements_text(x.vars)) FROM unnest($3::text[], $4::jsonb[]) WITH ORDINALITY AS x(phone, vars, n)`,
    [o.companyId, c.id, o.phones, o.phones.map((_, i) => JSON.stringify(vars(i)))],
  );
  return c.id;
}

/** `count` distinct Brazilian mobile numbers (digits, E.164 without +). */
export const phones = (count: number, start = 0) => Array.from({ length: count }, (_, i) => `55119${String(70000000 + start + i)}`);

export async function templateId(sql: Sql, businessId: number, name: string): Promise<number> {
  return (await sql.one<{ id: number }>("SELECT id FROM whatsapp_templates WHERE business_id = $1 AND name = $2", [businessId, name])).id;
}

/** The business's sandbox twin: a sandbox business with one number on a sandbox connection and an approved template. */
export async function buildSandboxBusiness(sql: Sql, companyId: number): Promise<{ businessId: number; numberId: number; whatsappId: number; templateId: number }> {
  const b = await sql.one<{ id: number }>(
    `INSERT INTO businesses (company_id, name, waba_id, access_token, app_secret, verify_token, sandbox)
     VALUES ($1, 'Sandbox', $2, '', '', '', true) RETURNING id`,
    [companyId, `sandbox-${companyId}`],
  );
  const w = await sql.one<{ id: number }>(
    "INSERT INTO whatsapps (company_id, name, provider, status) VALUES ($1, 'Sandbox campanhas', 'sandbox', 'CONNECTED') RETURNING id",
    [companyId],
  );
  const n = await sql.one<{ id: number }>(
    `INSERT INTO official_numbers (company_id, whatsapp_id, business_id, phone_number_id, phone_number, display_phone_number, messaging_limit, throughput_per_second)
     VALUES ($1, $2, $3, $4, $5, '+55 00000', 'TIER_UNLIMITED', 50) RETURNING id`,
    [companyId, w.id, b.id, `sandbox-${w.id}`, `5500000${String(w.id).padStart(6, "0")}`],
  );
  const t = await sql.one<{ id: number }>(
    `INSERT INTO whatsapp_templates (company_id, business_id, template_id, name, language, category, status, components, variable_count)
     VALUES ($1, $2, 'sb-1', 'boas_vindas', 'pt_BR', 'MARKETING', 'APPROVED', $3::jsonb, 2) RETURNING id`,
    [companyId, b.id, JSON.stringify([{ type: "BODY", text: "Olá {{1}}, seu pedido {{2}} saiu para entrega." }])],
  );
  return { businessId: b.id, numberId: n.id, whatsappId: w.id, templateId: t.id };
}

/** The largest number of sends in any one-second window of these times (ms), the rate between the first and last, and the count in each second from the first (where a start-up ramp or a slow end shows). */
export function rateFigures(times: number[]): { maxWindow: number; rate: number; perSecond: number[] } {
  const t = [...times].sort((a, b) => a - b);
  let maxWindow = 0;
  const perSecond: number[] = [];
  let j = 0;
  for (let i = 0; i < t.length; i++) {
    while (t[i]! - t[j]! >= 1000) j++;
    maxWindow = Math.max(maxWindow, i - j + 1);
    const second = Math.floor((t[i]! - t[0]!) / 1000);
    perSecond[second] = (perSecond[second] ?? 0) + 1;
  }
  const rate = t.length > 1 ? ((t.length - 1) * 1000) / (t[t.length - 1]! - t[0]!) : 0;
  return { maxWindow, rate, perSecond: Array.from(perSecond, (n) => n ?? 0) };
}
