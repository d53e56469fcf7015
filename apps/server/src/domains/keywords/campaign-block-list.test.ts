import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { campaignForm, postCampaign, seedCampaignWorld, waitAnalysed } from "../campaigns/test-fixtures.js";

let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;

beforeAll(async () => {
  app = await createTestApp();
  t = await buildTenant(app);
});
afterAll(async () => {
  await app.close();
});

const csv = (rows: string[]) => ({ name: "lista.csv", data: ["telefone;cpf;email;nome;valor", ...rows].join("\n") + "\n" });

describe("the block list stops campaign content", () => {
  it("refuses a campaign whose template carries a listed word, and marks rows whose variables do, only while it is on", async () => {
    const w = await seedCampaignWorld(app, t.companyId);
    const sorteio = (
      await app.sql.one<{ id: number }>(
        `INSERT INTO whatsapp_templates (company_id, business_id, name, language, category, status, components)
         VALUES ($1, $2, 'sorteio', 'pt_BR', 'MARKETING', 'APPROVED', $3) RETURNING id`,
        [t.companyId, w.businessId, JSON.stringify([{ type: "BODY", text: "Participe do nosso SORTEIO de Natal!" }])],
      )
    ).id;
    await app.api("POST", "/api/keyword", { token: t.admin.token, body: { word: "sorteio\npix grátis" } });

    // off: the words are listed but nothing is blocked
    const off = await postCampaign(app, t.supervisor.token, campaignForm(w, csv(["11988887777;1;a@x.com;Ana;pix gratis"]), { templateIds: [sorteio] }));
    expect(off.statusCode, off.body).toBe(200);
    expect((await waitAnalysed(app, t.supervisor.token, off.json().id)).countInvalid).toBe(0);

    await app.api("PUT", "/api/settings/enableBlockList", { token: t.admin.token, body: { value: "enabled" } });
    const refused = await postCampaign(app, t.supervisor.token, campaignForm(w, csv(["11988887777;1;a@x.com;Ana;10"]), { templateIds: [sorteio] }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: "ERR_BLOCKED_WORDS", message: "O conteúdo contém palavras bloqueadas: sorteio.", words: ["sorteio"] });

    const rows = csv(["11988887777;1;a@x.com;Ana;Ganhe um PIX GRÁTIS", "11988886666;2;b@x.com;Bia;10 reais", "11988885555;3;c@x.com;Caio;pixgratis"]);
    const ok = await postCampaign(app, t.supervisor.token, campaignForm(w, rows, { templateIds: [w.twoVars] }));
    expect(ok.statusCode, ok.body).toBe(200);
    const done = await waitAnalysed(app, t.supervisor.token, ok.json().id);
    expect(done).toMatchObject({ status: "READY", countTotal: 3, countInvalid: 1 });
    const invalid = await app.sql.many<{ row_number: number; invalid_reason: string }>(
      "SELECT row_number, invalid_reason FROM campaign_recipients WHERE campaign_id = $1 AND state = 'invalid'",
      [ok.json().id],
    );
    expect(invalid).toEqual([{ row_number: 1, invalid_reason: "Contém palavras bloqueadas: pix grátis." }]);
  });
});
