import { createTenant, db, E2E_ADMIN, expect, login, test } from "../support/fixtures.js";
import { watchConsole } from "../sandbox/helpers.js";
import { screenshot, themeShots } from "../support/screenshots.js";

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

test("subscription: checkout to the Pix step, pay on the sandbox PSP, CONCLUIDA toast and redirect to /", async ({ page, context }) => {
  test.setTimeout(150_000);
  const console = watchConsole(page);
  const tenant = await createTenant({ dueDate: inDays(5) });
  await db().exec("UPDATE plans SET value = 149.9 WHERE id = (SELECT plan_id FROM companies WHERE id = $1)", [tenant.companyId]);
  const overdue = await db().one<{ id: number }>(
    "INSERT INTO invoices (company_id, due_date, recurrence, detail, value, status, paid_at) VALUES ($1, $2, 'MENSAL', 'Plano anterior', 149.9, 'paid', now()) RETURNING id",
    [tenant.companyId, inDays(-25)],
  );
  const invoice = await db().one<{ id: number }>(
    "INSERT INTO invoices (company_id, due_date, recurrence, detail, value) VALUES ($1, $2, 'MENSAL', 'Plano Pro — MENSAL', 149.9) RETURNING id",
    [tenant.companyId, inDays(5)],
  );
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await login(page, tenant.admin.email);
  await page.goto("/subscription");
  await expect(page.getByRole("heading", { name: "Assinatura" })).toBeVisible();
  await expect(page.getByTestId("subscription-summary")).toContainText("Faltam 5 dias");
  const rows = page.getByTestId("invoice-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText("Em Aberto");
  await expect(rows.first()).toContainText("R$ 149,90");
  await expect(rows.nth(1)).toContainText("Pago");
  await expect(rows.nth(1).getByRole("button", { name: "Pagar" })).toHaveCount(0);
  expect(overdue.id).toBeGreaterThan(0);
  await themeShots(page, "subscription", async () => {
    await expect(rows.first()).toBeVisible();
    // at phone width the invoices fit: value, due date, status and the pay button without sideways scrolling
    const table = page.getByRole("table", { name: "Faturas" });
    expect(await table.evaluate((el) => el.parentElement!.scrollWidth <= el.parentElement!.clientWidth)).toBe(true);
  });

  await page.getByRole("button", { name: "Assine Agora!" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("Dados")).toBeVisible();
  await dialog.getByRole("button", { name: "Próximo" }).click();
  await expect(dialog.getByText("nome completo obrigatorio")).toBeVisible();
  await expect(dialog.getByText("Endereco obrigatorio")).toBeVisible();
  await expect(dialog.getByText("Cidade obrigatoria")).toBeVisible();
  await expect(dialog.getByText("CEP obrigatorio")).toBeVisible();
  await dialog.getByLabel("Nome completo").fill("Ana Souza");
  await dialog.getByLabel("Endereço").fill("Rua das Flores, 10");
  await dialog.getByLabel("Cidade").fill("Recife");
  await dialog.getByLabel("CEP").fill("50000-000");
  await dialog.getByRole("button", { name: "Próximo" }).click();
  await dialog.getByTestId("own-plan").click();
  await expect(dialog.getByTestId("checkout-total")).toHaveText("R$ 149,90");
  await screenshot(page, { path: "/tmp/checkout-review-1366-light.png" });
  await dialog.getByRole("button", { name: "Pagar com Pix" }).click();
  await expect(page.getByText("Assinatura realizada com sucesso!, aguardando a realizacao do pagamento")).toBeVisible();
  await expect(dialog.getByTestId("pix-step")).toBeVisible();
  const code = await dialog.getByTestId("pix-code").inputValue();
  expect(code).toMatch(/^000201.*br\.gov\.bcb\.pix.*6304[0-9A-F]{4}$/);
  await dialog.getByRole("button", { name: "Copiar código" }).click();
  await expect(dialog.getByRole("button", { name: "Copiado!" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
  await expect(dialog.getByRole("button", { name: "Copiar código" })).toBeVisible({ timeout: 3000 });
  await screenshot(page, { path: "/tmp/checkout-pix-1366-light.png" });

  const { txid } = await db().one<{ txid: string }>("SELECT txid FROM pix_charges WHERE invoice_id = $1", [invoice.id]);
  // the sandbox PSP's page, reached as a newcomer would: the link under the QR code opens it in a new tab
  await expect(dialog.getByTestId("pix-sandbox-link")).toHaveAttribute("href", `/pix-sandbox/${txid}`);
  const [bank] = await Promise.all([context.waitForEvent("page"), dialog.getByTestId("pix-sandbox-link").click()]);
  const bankConsole = watchConsole(bank);
  await expect(bank.getByText("R$ 149,90")).toBeVisible();
  await bank.getByRole("button", { name: "Pagar" }).click();
  await expect(bank.getByTestId("sandbox-status")).toHaveText("Pago");
  await screenshot(bank, { path: "/tmp/pix-sandbox-light.png" });

  await expect(page.getByText(/Pagamento confirmado! Sua assinatura vale até \d{2}\/\d{2}\/\d{4}\./)).toBeVisible();
  await page.waitForURL((url) => url.pathname === "/", { timeout: 8000 });
  const company = await db().one<{ due: string }>("SELECT to_char(due_date, 'YYYY-MM-DD') AS due FROM companies WHERE id = $1", [tenant.companyId]);
  expect(company.due > inDays(5)).toBe(true);
  expect((await db().one<{ status: string }>("SELECT status FROM invoices WHERE id = $1", [invoice.id])).status).toBe("paid");
  expect(console.errors).toEqual([]);
  expect(bankConsole.errors).toEqual([]);
});

test("financeiro: the super administrator sees every company's invoices, overdue ones in red", async ({ page }) => {
  const tenant = await createTenant();
  await db().exec("INSERT INTO invoices (company_id, due_date, recurrence, detail, value) VALUES ($1, $2, 'MENSAL', 'Fatura atrasada e2e', 59.9)", [tenant.companyId, inDays(-2)]);
  await login(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.goto("/financeiro");
  await expect(page.getByRole("heading", { name: "Financeiro" })).toBeVisible();
  await page.getByRole("searchbox").fill("atrasada e2e");
  const row = page.getByTestId("invoice-row").filter({ hasText: "Fatura atrasada e2e" });
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute("data-status", "overdue");
  await expect(row).toContainText("Vencido");
  await expect(row.getByRole("button", { name: "Pagar" })).toHaveCount(0);
  await screenshot(page, { path: "/tmp/financeiro-1366-light.png" });
});
