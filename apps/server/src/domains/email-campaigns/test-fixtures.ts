import type { TestApp } from "../../../test/helper.js";

/** A company's e-mail campaign prerequisites: a cost center, a verified sender and a template with {{nome}}. */
export async function seedEmailWorld(app: TestApp, companyId: number, o: { html?: string; subject?: string } = {}) {
  const one = <T>(text: string, params: unknown[]) => app.sql.one<T>(text, params);
  const costCenterId = (await one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, 'E-mail') RETURNING id", [companyId])).id;
  const senderId = (await one<{ id: number }>(
    "INSERT INTO email_senders (company_id, email_address, verified_at) VALUES ($1, $2, now()) RETURNING id",
    [companyId, `marketing${companyId}@loja.test`],
  )).id;
  const unverifiedSenderId = (await one<{ id: number }>("INSERT INTO email_senders (company_id, email_address) VALUES ($1, $2) RETURNING id", [
    companyId,
    `novo${companyId}@loja.test`,
  ])).id;
  const templateId = (await one<{ id: number }>(
    "INSERT INTO email_templates (company_id, title, subject, content) VALUES ($1, 'Promo', $2, $3) RETURNING id",
    [
      companyId,
      o.subject ?? "Olá {{nome}}",
      o.html ?? '<html><body><p>Oi {{nome}}!</p><a href="https://loja.test/oferta?a=1&amp;b=2">Ver oferta</a> <a href="mailto:x@loja.test">fale</a></body></html>',
    ],
  )).id;
  return { companyId, costCenterId, senderId, unverifiedSenderId, senderAddress: `marketing${companyId}@loja.test`, templateId };
}
export type EmailWorld = Awaited<ReturnType<typeof seedEmailWorld>>;

export const createBody = (w: EmailWorld, over: Record<string, unknown> = {}) => ({
  title: "Campanha de e-mail",
  filename: "lista.csv",
  cost_center_id: w.costCenterId,
  sender: w.senderId,
  template: w.templateId,
  ...over,
});

/** POST then PUT the CSV, as the web app does; returns the campaign id. */
export async function createWithFile(app: TestApp, token: string, w: EmailWorld, csv: string, over: Record<string, unknown> = {}): Promise<number> {
  const res = await app.api("POST", "/api/email/campaigns/", { token, body: createBody(w, over) });
  if (res.statusCode !== 200) throw new Error(`create: ${res.body}`);
  const { id, upload_url } = res.json() as { id: number; upload_url: string };
  const put = await app.app.inject({
    method: "PUT",
    url: new URL(upload_url).pathname,
    payload: csv,
    headers: { authorization: `Bearer ${token}`, "content-type": "text/csv" },
  });
  if (put.statusCode !== 200) throw new Error(`upload: ${put.body}`);
  return id;
}

export async function waitStatus(app: TestApp, id: number, want: string[], ms = 20_000): Promise<string> {
  const until = Date.now() + ms;
  for (;;) {
    const row = await app.sql.one<{ status: string; error_message: string }>("SELECT status, error_message FROM email_campaigns WHERE id = $1", [id]);
    if (want.includes(row.status)) return row.status;
    if (Date.now() > until) throw new Error(`campaign ${id} is ${row.status} (${row.error_message}), not ${want.join("|")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
