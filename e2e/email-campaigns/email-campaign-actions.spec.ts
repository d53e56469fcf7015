import type { Page } from "@playwright/test";
import { watchConsole } from "../sandbox/helpers.js";
import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { screenshot, themeShots } from "../support/screenshots.js";

/**
 * The E-mail tab's row actions: spec 3 §4's action exactly (RUNNING disabled, in analysis disabled,
 * otherwise Disparar, enabled only for ACTIVE from the web), and pause, resume and cancel in the row's
 * "Mais ações" menu (Cancelar asks first). The campaigns are written to the database as the analysis
 * leaves them; the server's dispatcher sends the running one (sandbox mailbox).
 */
const shots = (page: Page, name: string) =>
  themeShots(page, name, () => expect(page.getByTestId("email-campaign-row").first()).toBeVisible(), { fullPage: true });

async function seed(companyId: number) {
  const one = <T>(text: string, params: unknown[]) => db().one<T>(text, params);
  const cc = (await one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, 'Marketing') RETURNING id", [companyId])).id;
  const sender = (await one<{ id: number }>("INSERT INTO email_senders (company_id, email_address, verified_at) VALUES ($1, 'vendas@loja.test', now()) RETURNING id", [companyId])).id;
  const template = (await one<{ id: number }>("INSERT INTO email_templates (company_id, title, subject, content) VALUES ($1, 'Ofertas', 'Oferta', '<p>Oi</p>') RETURNING id", [companyId])).id;
  const campaign = async (title: string, status: string, source: number, rows: number, minutesAgo: number) => {
    const id = (
      await one<{ id: number }>(
        `INSERT INTO email_campaigns (company_id, title, status, source, cost_center_id, sender_id, from_address, template_id, subject, html, file_name, count_total, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'vendas@loja.test', $7, 'Oferta', '<p>Oi</p>', 'lista.csv', $8, now() - $9 * interval '1 minute') RETURNING id`,
        [companyId, title, status, source, cc, sender, template, rows, minutesAgo],
      )
    ).id;
    if (rows) {
      await db().exec(
        `INSERT INTO email_campaign_recipients (company_id, campaign_id, row_number, email, state)
         SELECT $1, $2, n, 'c' || n || '@acao.test', 'pending' FROM generate_series(1, $3) n`,
        [companyId, id, rows],
      );
    }
    return id;
  };
  // 2,000 rows at the default 10 a second: still sending when the test ends
  const running = await campaign("Black Friday", "RUNNING", 2, 2000, 1);
  await campaign("Lista em análise", "ANALYZING", 2, 0, 2);
  await campaign("Criada pela API", "ACTIVE", 1, 3, 3);
  await campaign("Natal passado", "FINISHED", 2, 0, 4);
  return { running };
}

test("the E-mail list's row actions: spec §4's trigger; pause, resume and cancel (confirmed) in the more-actions menu", async ({ page }) => {
  test.setTimeout(240_000);
  const consoleErrors = watchConsole(page);
  const tenant = await createTenant();
  const { running } = await seed(tenant.companyId);
  const delivered = async () =>
    (await db().one<{ n: number }>("SELECT count(*)::int AS n FROM email_campaign_recipients WHERE campaign_id = $1 AND state = 'delivered'", [running])).n;

  await login(page, tenant.admin.email);
  await page.goto("/campaigns?channel=email");
  const row = (title: string) => page.getByTestId("email-campaign-row").filter({ hasText: title });
  const more = (title: string) => row(title).getByRole("button", { name: "Mais ações" });
  const menuItem = (name: string) => page.getByRole("menu").getByRole("menuitem", { name });
  const menuItems = () => page.getByRole("menu").getByRole("menuitem");

  // spec §4: the row's action by status
  await expect(row("Lista em análise").getByRole("button", { name: "Em análise" })).toBeDisabled();
  await expect(row("Criada pela API")).toContainText("API");
  await expect(row("Criada pela API").getByRole("button", { name: "Disparar" })).toBeDisabled();
  await expect(row("Natal passado").getByRole("button", { name: "Disparar" })).toBeDisabled();
  await expect(row("Black Friday").getByRole("button", { name: "Em disparo" })).toBeDisabled();
  await expect(row("Black Friday").getByRole("button", { name: "Pausar" })).toHaveCount(0);
  // and what the menu offers: a finished campaign has none
  await expect(more("Natal passado")).toHaveCount(0);
  await more("Lista em análise").click();
  await expect(menuItems()).toHaveText(["Cancelar"]);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toBeHidden();

  // pause (from the menu): the dispatcher stops; nothing more is delivered while paused
  const sending = row("Black Friday");
  await expect(sending.getByTestId("email-status")).toHaveText("Em Disparo");
  await expect.poll(delivered, { timeout: 20_000 }).toBeGreaterThan(0);
  await more("Black Friday").click();
  await expect(menuItems()).toHaveText(["Pausar", "Cancelar"]);
  await menuItem("Pausar").click();
  await expect(sending.getByTestId("email-status")).toHaveText("Pausada");
  await expect(page.getByText("Campanha pausada")).toBeVisible();
  // paused: the spec's action is a disabled Disparar (not ACTIVE)
  await expect(sending.getByRole("button", { name: "Disparar" })).toBeDisabled();
  await expect
    .poll(async () => (await db().one<{ n: number }>("SELECT count(*)::int AS n FROM email_campaign_recipients WHERE campaign_id = $1 AND state = 'sending'", [running])).n)
    .toBe(0);
  const atPause = await delivered();
  await page.waitForTimeout(1500);
  expect(await delivered()).toBe(atPause);
  await more("Black Friday").click();
  await expect(menuItems()).toHaveText(["Retomar", "Cancelar"]);
  await screenshot(page, { path: "/tmp/email-campaign-actions-menu.png" });
  await page.keyboard.press("Escape");
  await shots(page, "email-campaign-actions-paused");

  // resume: sending again
  await more("Black Friday").click();
  await menuItem("Retomar").click();
  await expect(sending.getByTestId("email-status")).toHaveText("Em Disparo");
  await expect(sending.getByRole("button", { name: "Em disparo" })).toBeDisabled();
  await expect.poll(delivered, { timeout: 20_000 }).toBeGreaterThan(atPause);

  // cancel asks first; closing the question changes nothing
  await more("Black Friday").click();
  await menuItem("Cancelar").click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Cancelar a campanha Black Friday? Nenhum e-mail mais será enviado.");
  await dialog.getByRole("button", { name: "Cancelar" }).first().click();
  await expect(dialog).toBeHidden();
  await expect(sending.getByTestId("email-status")).toHaveText("Em Disparo");
  await more("Black Friday").click();
  await menuItem("Cancelar").click();
  await dialog.getByRole("button", { name: "Cancelar" }).last().click();
  await expect(sending.getByTestId("email-status")).toHaveText("Cancelada");
  await expect(more("Black Friday")).toHaveCount(0);
  await expect(sending.getByRole("button", { name: "Disparar" })).toBeDisabled();
  const after = await db().one<{ pending: number; skipped: number }>(
    `SELECT count(*) FILTER (WHERE state = 'pending')::int AS pending, count(*) FILTER (WHERE state = 'skipped')::int AS skipped
       FROM email_campaign_recipients WHERE campaign_id = $1`,
    [running],
  );
  expect(after.pending).toBe(0);
  expect(after.skipped).toBeGreaterThan(0);
  await screenshot(page, { path: "/tmp/email-campaign-actions-cancelled.png" });
  expect(consoleErrors.errors).toEqual([]);
});

test("the SMS and E-mail lists open a campaign's invalid rows with their reasons", async ({ page }) => {
  test.setTimeout(120_000);
  const consoleErrors = watchConsole(page);
  const tenant = await createTenant();
  const c = tenant.companyId;
  const one = <T>(text: string, params: unknown[]) => db().one<T>(text, params);
  const cc = (await one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, 'Cobrança') RETURNING id", [c])).id;
  const smsTemplate = (await one<{ id: number }>("INSERT INTO sms_templates (company_id, title, content) VALUES ($1, 'Aviso', 'Sua fatura chegou.') RETURNING id", [c])).id;
  const sms = (
    await one<{ id: number }>(
      `INSERT INTO sms_campaigns (company_id, title, status, cost_center_id, template_id, template_content, count_total, count_invalid)
       VALUES ($1, 'Cobrança de novembro', 'READY', $2, $3, 'Sua fatura chegou.', 3, 2) RETURNING id`,
      [c, cc, smsTemplate],
    )
  ).id;
  await db().exec(
    `INSERT INTO sms_campaign_recipients (company_id, campaign_id, row_number, phone, state, invalid_reason) VALUES
       ($1, $2, 1, '5511988887777', 'pending', ''), ($1, $2, 2, 'abc', 'invalid', 'Número de telefone inválido.'),
       ($1, $2, 3, '5511988887777', 'invalid', 'Número duplicado (mesmo número na linha 1).')`,
    [c, sms],
  );
  const sender = (await one<{ id: number }>("INSERT INTO email_senders (company_id, email_address, verified_at) VALUES ($1, 'cobranca@loja.test', now()) RETURNING id", [c])).id;
  const template = (await one<{ id: number }>("INSERT INTO email_templates (company_id, title, subject, content) VALUES ($1, 'Fatura', 'Fatura', '<p>Oi</p>') RETURNING id", [c])).id;
  const email = (
    await one<{ id: number }>(
      `INSERT INTO email_campaigns (company_id, title, status, cost_center_id, sender_id, from_address, template_id, subject, html, count_total, count_invalid)
       VALUES ($1, 'Fatura por e-mail', 'ACTIVE', $2, $3, 'cobranca@loja.test', $4, 'Fatura', '<p>Oi</p>', 2, 1) RETURNING id`,
      [c, cc, sender, template],
    )
  ).id;
  await db().exec(
    `INSERT INTO email_campaign_recipients (company_id, campaign_id, row_number, email, state, invalid_reason) VALUES
       ($1, $2, 1, 'ana@cliente.test', 'pending', ''), ($1, $2, 2, 'nao-e-email', 'invalid', 'Endereço de e-mail inválido.')`,
    [c, email],
  );

  await login(page, tenant.admin.email);
  await page.goto("/campaigns?channel=sms");
  const smsRow = page.getByRole("row").filter({ hasText: "Cobrança de novembro" });
  await smsRow.getByTestId("sms-invalid").click();
  const dialog = page.getByRole("dialog", { name: "Linhas inválidas: Cobrança de novembro" });
  await expect(dialog.getByTestId("invalid-row")).toHaveCount(2);
  await expect(dialog.getByTestId("invalid-row").first()).toContainText("abc");
  await expect(dialog.getByTestId("invalid-row").first()).toContainText("Número de telefone inválido.");
  await expect(dialog.getByTestId("invalid-row").nth(1)).toContainText("Número duplicado (mesmo número na linha 1).");
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, { path: "/tmp/sms-invalid-rows-390.png" });
  await dialog.getByRole("button", { name: "Fechar" }).click();
  await expect(dialog).toBeHidden();
  // on a phone the count column is hidden: the list icon opens the same dialog
  await smsRow.getByRole("button", { name: "Linhas inválidas" }).click();
  await expect(dialog.getByTestId("invalid-row")).toHaveCount(2);
  await dialog.getByRole("button", { name: "Fechar" }).click();
  await page.setViewportSize({ width: 1366, height: 860 });

  await page.goto("/campaigns?channel=email");
  const emailRow = page.getByTestId("email-campaign-row").filter({ hasText: "Fatura por e-mail" });
  await emailRow.getByRole("button", { name: "Linhas inválidas" }).click();
  const emailDialog = page.getByRole("dialog", { name: "Linhas inválidas: Fatura por e-mail" });
  await expect(emailDialog.getByRole("columnheader", { name: "E-mail" })).toBeVisible();
  await expect(emailDialog.getByTestId("invalid-row")).toHaveCount(1);
  await expect(emailDialog.getByTestId("invalid-row")).toContainText("nao-e-email");
  await expect(emailDialog.getByTestId("invalid-row")).toContainText("Endereço de e-mail inválido.");
  await page.evaluate(() => localStorage.setItem("preferredTheme", "dark"));
  await page.reload();
  await emailRow.getByRole("button", { name: "Linhas inválidas" }).click();
  await expect(emailDialog.getByTestId("invalid-row")).toHaveCount(1);
  await screenshot(page, { path: "/tmp/email-invalid-rows-dark.png" });
  await page.evaluate(() => localStorage.setItem("preferredTheme", "light"));
  expect(consoleErrors.errors).toEqual([]);
});
