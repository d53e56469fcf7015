import { createTenant, db, expect, login, sealIn, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

/** The WhatsApp campaign list on a laptop (1366 × 768): the send counters, failures among them, are on screen. */
test.use({ viewport: { width: 1366, height: 768 } });

test("at 1366 px the campaign list shows Enviadas, Lidas, Respondidas and Falhas with their figures", async ({ page }) => {
  const tenant = await createTenant();
  const c = tenant.companyId;
  const costCenterId = (await db().one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, 'Marketing') RETURNING id", [c])).id;
  const businessId = (await db().one<{ id: number }>(
    "INSERT INTO businesses (company_id, name, waba_id, access_token, app_secret, verify_token) VALUES ($1, 'BM Loja', $2, '', '', '') RETURNING id",
    [c, `waba-laptop-${c}`],
  )).id;
  await sealIn("businesses", businessId, { access_token: "tok", app_secret: "sec", verify_token: "ver" });
  await db().exec(
    `INSERT INTO campaigns (company_id, name, cost_center_id, business_id, status, count_total, count_sent, count_delivered, count_read, count_replied, count_failed)
     VALUES ($1, 'Black Friday', $2, $3, 'FINISHED', 100, 91, 80, 61, 17, 9)`,
    [c, costCenterId, businessId],
  );
  await login(page, tenant.supervisor.email);
  await page.goto("/campaigns");
  const table = page.getByRole("table", { name: "Campanhas" });
  const row = page.getByTestId("campaign-row").filter({ hasText: "Black Friday" });
  await expect(row).toBeVisible();
  const headers = await table.locator("thead th").evaluateAll((ths) => ths.filter((th) => (th as HTMLElement).offsetParent !== null).map((th) => th.textContent));
  const cells = await row.locator("td").evaluateAll((tds) => tds.filter((td) => (td as HTMLElement).offsetParent !== null).map((td) => td.textContent));
  const shown = (header: string) => cells[headers.indexOf(header)];
  for (const [header, value] of [["Enviadas", "91"], ["Lidas", "61"], ["Respondidas", "17"], ["Falhas", "9"]] as const) {
    await expect(table.getByRole("columnheader", { name: header, exact: true })).toBeInViewport();
    expect(shown(header), header).toBe(value);
  }
  await expect(row.getByTestId("delivery-percent")).toBeInViewport();
  await screenshot(page, { path: "/tmp/webwalk-campaigns-1366.png" });
});

test("at 1366 px the SMS and e-mail lists show their failures (Não entregues)", async ({ page }) => {
  const tenant = await createTenant();
  const c = tenant.companyId;
  const one = <T>(text: string, params: unknown[]) => db().one<T>(text, params);
  const cc = (await one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, 'Cobrança') RETURNING id", [c])).id;
  const smsTemplate = (await one<{ id: number }>("INSERT INTO sms_templates (company_id, title, content) VALUES ($1, 'Aviso', 'Sua fatura chegou.') RETURNING id", [c])).id;
  await db().exec(
    `INSERT INTO sms_campaigns (company_id, title, status, cost_center_id, template_id, template_content, count_total)
     VALUES ($1, 'Cobrança de novembro', 'FINISHED', $2, $3, 'Sua fatura chegou.', 3)`,
    [c, cc, smsTemplate],
  );
  const sender = (await one<{ id: number }>("INSERT INTO email_senders (company_id, email_address, verified_at) VALUES ($1, 'cobranca@loja.test', now()) RETURNING id", [c])).id;
  const template = (await one<{ id: number }>("INSERT INTO email_templates (company_id, title, subject, content) VALUES ($1, 'Fatura', 'Fatura', '<p>Oi</p>') RETURNING id", [c])).id;
  await db().exec(
    `INSERT INTO email_campaigns (company_id, title, status, cost_center_id, sender_id, from_address, template_id, subject, html, count_total, count_emails_not_delivered)
     VALUES ($1, 'Fatura por e-mail', 'FINISHED', $2, $3, 'cobranca@loja.test', $4, 'Fatura', '<p>Oi</p>', 10, 4)`,
    [c, cc, sender, template],
  );
  await login(page, tenant.admin.email);

  await page.goto("/campaigns?channel=sms");
  await expect(page.getByRole("row").filter({ hasText: "Cobrança de novembro" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Não entregues", exact: true })).toBeInViewport();

  await page.goto("/campaigns?channel=email");
  const emailRow = page.getByTestId("email-campaign-row").filter({ hasText: "Fatura por e-mail" });
  await expect(emailRow).toBeVisible();
  const header = page.getByRole("columnheader", { name: "Não entregues", exact: true });
  await expect(header).toBeInViewport();
  const headers = await page.locator("thead th").evaluateAll((ths) => ths.filter((th) => (th as HTMLElement).offsetParent !== null).map((th) => th.textContent));
  const cells = await emailRow.locator("td").evaluateAll((tds) => tds.filter((td) => (td as HTMLElement).offsetParent !== null).map((td) => td.textContent));
  expect(cells[headers.indexOf("Não entregues")]).toBe("4");
});
