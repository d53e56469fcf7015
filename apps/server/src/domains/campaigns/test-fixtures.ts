import type { TestApp } from "../../../test/helper.js";
import { multipartBody, sealStored, type FormPart } from "../../../test/factories.js";

export { multipartBody, type FormPart };

let seq = 0;

/** A company's campaign prerequisites: cost center, queue, a business with two active numbers and approved templates. */
export async function seedCampaignWorld(app: TestApp, companyId: number) {
  const n = ++seq;
  const one = <T>(text: string, params: unknown[]) => app.sql.one<T>(text, params);
  const costCenterId = (await one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, $2) RETURNING id", [companyId, `Marketing ${n}`])).id;
  const otherCostCenterId = (await one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, $2) RETURNING id", [companyId, `Vendas ${n}`])).id;
  const queueId = (await one<{ id: number }>("INSERT INTO queues (company_id, name, color) VALUES ($1, $2, $3) RETURNING id", [companyId, `Fila ${n}`, `#00${String(n).padStart(4, "0")}`])).id;
  const business = async (name: string) => {
    const id = (await one<{ id: number }>(
      "INSERT INTO businesses (company_id, name, waba_id, access_token, app_secret, verify_token) VALUES ($1, $2, $3, '', '', '') RETURNING id",
      [companyId, name, `waba-${companyId}-${name}-${n}`],
    )).id;
    await sealStored(app.sql, app.ctx.secrets, "businesses", id, { access_token: "tok", app_secret: "sec", verify_token: "ver" });
    return id;
  };
  const businessId = await business("BM Principal");
  const otherBusinessId = await business("BM Outro");
  const number = async (bId: number, digits: string, active = true) => {
    const w = await one<{ id: number }>(
      "INSERT INTO whatsapps (company_id, name, provider, is_official, status) VALUES ($1, $2, 'official', true, 'CONNECTED') RETURNING id",
      [companyId, `Oficial ${digits}`],
    );
    return (await one<{ id: number }>(
      `INSERT INTO official_numbers (company_id, whatsapp_id, business_id, phone_number_id, phone_number, display_phone_number, active, messaging_limit)
       VALUES ($1, $2, $3, $4, $5, $5, $6, 'TIER_1K') RETURNING id`,
      [companyId, w.id, bId, `pn-${digits}`, digits, active],
    )).id;
  };
  const numberIds = [await number(businessId, `55119000${companyId}${n}1`), await number(businessId, `55119000${companyId}${n}2`)];
  const inactiveNumberId = await number(businessId, `55119000${companyId}${n}3`, false);
  const otherNumberId = await number(otherBusinessId, `55119000${companyId}${n}4`);
  const template = async (bId: number, name: string, variables: number, status = "APPROVED") =>
    (await one<{ id: number }>(
      `INSERT INTO whatsapp_templates (company_id, business_id, name, language, category, status, components, variable_count)
       VALUES ($1, $2, $3, 'pt_BR', 'MARKETING', $4, $5, $6) RETURNING id`,
      [
        companyId,
        bId,
        name,
        status,
        JSON.stringify([{ type: "BODY", text: `Olá ${Array.from({ length: variables }, (_, i) => `{{${i + 1}}}`).join(" ")}` }]),
        variables,
      ],
    )).id;
  return {
    costCenterId,
    otherCostCenterId,
    queueId,
    businessId,
    otherBusinessId,
    numberIds,
    inactiveNumberId,
    otherNumberId,
    noVars: await template(businessId, "aviso", 0),
    twoVars: await template(businessId, "cobranca", 2),
    rejected: await template(businessId, "recusado", 0, "REJECTED"),
    otherBusinessTemplate: await template(otherBusinessId, "outro", 0),
  };
}
export type CampaignWorld = Awaited<ReturnType<typeof seedCampaignWorld>>;


/** The form's fields for `w` with `file`, minus `omit`, plus `extra`. */
export function campaignForm(
  w: CampaignWorld,
  file: FormPart["file"] | null,
  o: { omit?: string[]; templateIds?: number[]; extra?: FormPart[]; title?: string } = {},
): FormPart[] {
  const parts: FormPart[] = [
    { name: "title", value: o.title ?? "Campanha de teste" },
    { name: "costCenterId", value: String(w.costCenterId) },
    { name: "costCenterName", value: "Marketing" },
    { name: "businessIds[]", value: String(w.businessId) },
    ...(o.templateIds ?? [w.noVars]).map((id) => ({ name: "templateIds[]", value: String(id) })),
    { name: "queueId", value: String(w.queueId) },
    ...(o.extra ?? []),
  ];
  const kept = parts.filter((p) => !(o.omit ?? []).includes(p.name.replace(/\[\]$/, "")));
  return file ? [...kept, { name: "file", file }] : kept;
}

export async function postCampaign(app: TestApp, token: string, parts: FormPart[]) {
  const body = multipartBody(parts);
  return app.app.inject({ method: "POST", url: "/api/campaigns", payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${token}` } });
}

/** Polls the campaign until its status leaves ANALYZING. */
export async function waitAnalysed(app: TestApp, token: string, id: number, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.api("GET", `/api/campaigns/${id}`, { token });
    const body = res.json();
    if (body.status !== "ANALYZING") return body;
    if (Date.now() > until) throw new Error(`campaign ${id} still ANALYZING: ${res.body}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A campaign CSV of 2,000 data rows (a full analysis batch) that end one byte before the reader's
 * first 256 KB chunk does, then a line of 100,000 characters: the parser hands over the 2,000th row
 * with the next chunk and meets the long line in that same chunk, while the analysis is storing the
 * batch (awaiting the database), not while it waits for the next row.
 * `row(i)` is one data row without its line break; `header` the header line without it.
 */
export function longLineWhileStoringCsv(header: string, row: (i: number) => string, longLine: string): string {
  const CHUNK = 256 * 1024;
  const rows = Array.from({ length: 2000 }, (_, i) => row(i));
  const bare = header.length + 1 + rows.reduce((n, r) => n + r.length + 1, 0);
  // pad every row with one more column so that header + 2,000 rows = CHUNK - 1 bytes
  const pad = Math.floor((CHUNK - 1 - bare - 2000) / 2000);
  const padded = rows.map((r) => `${r};${"p".repeat(pad)}`);
  const used = header.length + 1 + padded.reduce((n, r) => n + r.length + 1, 0);
  const head = `${header};${"z".repeat(CHUNK - 1 - used - 1)}`;
  const text = `${head}\n${padded.join("\n")}\n${longLine}\n`;
  if (Buffer.byteLength(text) - longLine.length - 1 !== CHUNK - 1) throw new Error("longLineWhileStoringCsv: ASCII rows only");
  return text;
}
