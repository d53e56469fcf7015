import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

/** An SMS campaign of the company with one recipient and a short link `code` to `url` (its template names the URL). */
async function shortLink(companyId: number, code: string, url: string): Promise<void> {
  const sql = db();
  const costCenter = await sql.one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, $2) RETURNING id", [companyId, `Links ${code}`]);
  const content = `Oferta: ${url}`;
  const template = await sql.one<{ id: number }>("INSERT INTO sms_templates (company_id, title, content) VALUES ($1, $2, $3) RETURNING id", [companyId, `Links ${code}`, content]);
  const campaign = await sql.one<{ id: number }>(
    `INSERT INTO sms_campaigns (company_id, title, status, cost_center_id, template_id, template_content, use_shortener_url)
     VALUES ($1, 'Ofertas', 'FINISHED', $2, $3, $4, true) RETURNING id`,
    [companyId, costCenter.id, template.id, content],
  );
  const recipient = await sql.one<{ id: string }>(
    "INSERT INTO sms_campaign_recipients (company_id, campaign_id, row_number, phone, state) VALUES ($1, $2, 1, '5511987650001', 'delivered') RETURNING id::text",
    [companyId, campaign.id],
  );
  await sql.exec("INSERT INTO sms_short_links (code, company_id, campaign_id, recipient_id, url) VALUES ($1, $2, $3, $4, $5)", [
    code,
    companyId,
    campaign.id,
    recipient.id,
    url,
  ]);
}

test("a short link to another site shows its destination; the company's own domains, declared in settings, go straight there", async ({ page, baseURL }) => {
  const t = await createTenant();
  const code = `e2e${Date.now().toString(36)}`.slice(0, 12);
  await shortLink(t.companyId, code, "https://loja-e2e.example/ofertas?id=7");

  // not declared: the click page names the destination
  await page.goto(`/s/${code}`);
  await expect(page.getByRole("heading", { name: "Você está saindo para outro site" })).toBeVisible();
  await expect(page.getByTestId("click-destination-host")).toHaveText("loja-e2e.example");
  await expect(page.getByTestId("click-destination")).toHaveText("https://loja-e2e.example/ofertas?id=7");
  await expect(page.getByRole("link", { name: "Continuar para loja-e2e.example" })).toHaveAttribute("href", "https://loja-e2e.example/ofertas?id=7");
  await screenshot(page, { path: "/tmp/security-click-page.png" });

  // the admin declares the company's domains (a URL is refused in the form)
  await login(page, t.admin.email);
  await page.goto("/settings");
  const domains = page.getByTestId("link-domains");
  await domains.fill("https://loja-e2e.example");
  await expect(page.getByText("Informe nomes de domínio separados por vírgula (ex.: loja.com.br), no máximo 10.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Salvar links" })).toBeDisabled();
  await domains.fill("Loja-E2E.example, outra.example");
  await page.getByRole("button", { name: "Salvar links" }).click();
  await expect(page.getByText("Configuração atualizada com sucesso.")).toBeVisible();
  await expect(domains).toHaveValue("loja-e2e.example, outra.example");
  await screenshot(page, { path: "/tmp/security-link-settings.png", fullPage: true });
  const stored = await db().one<{ value: string }>("SELECT value FROM settings WHERE company_id = $1 AND key = 'linkDomains'", [t.companyId]);
  expect(stored.value).toBe("loja-e2e.example, outra.example");

  // declared: straight there
  const click = await page.request.get(`${baseURL}/s/${code}`, { maxRedirects: 0 });
  expect(click.status()).toBe(302);
  expect(click.headers().location).toBe("https://loja-e2e.example/ofertas?id=7");
});
