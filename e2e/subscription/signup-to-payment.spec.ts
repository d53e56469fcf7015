import type { Page } from "@playwright/test";
import { createTenant, db, E2E_ADMIN, expect, login, test } from "../support/fixtures.js";
import { watchConsole } from "../sandbox/helpers.js";
import { screenshot } from "../support/screenshots.js";

const stamp = () => `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const br = (iso: string) => iso.split("-").reverse().join("/");

// one test changes the sign-up settings the others rely on (7 days, the seeded plan): one at a time
test.describe.configure({ mode: "serial" });

/** Signs up through the form as a newcomer would, keeping the plan the page selects first (the seeded priced one). */
async function signUp(page: Page, company: string, person: string): Promise<string> {
  const email = `pay-${stamp()}@e2e.test`;
  await page.goto("/signup");
  await expect(page.getByText("teste grátis por 7 dias")).toBeVisible();
  await page.getByLabel("Nome da empresa").fill(company);
  await page.getByLabel("Seu nome").fill(person);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Telefone").fill("11999998888");
  await page.getByLabel("Senha").fill("segredo123");
  // the super administrator's plan is selected; a plan of no value is not offered
  await expect(page.getByTestId("plan-select")).toContainText("Plano Essencial");
  await page.getByTestId("plan-select").click();
  await expect(page.getByRole("option", { name: /Plano Padrão/ })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await screenshot(page, { path: "/tmp/billing-signup.png" });
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(page).toHaveURL(/\/login$/);
  return email;
}

test("a company that signs up pays at once: Assinatura → Assine Agora! → invoice → Pix on the sandbox PSP", async ({ page, context }) => {
  test.setTimeout(150_000);
  const console = watchConsole(page);
  const email = await signUp(page, `Padaria ${stamp()}`.slice(0, 40), "Joana Dona");
  await login(page, email, "segredo123");
  // the admin is greeted by the person's name
  await expect(page.getByTestId("greeting")).toContainText("Joana Dona");

  await page.goto("/subscription");
  await expect(page.getByTestId("subscription-summary")).toContainText("Plano Essencial");
  await expect(page.getByTestId("subscription-summary")).toContainText("Faltam 7 dias");
  await page.getByRole("button", { name: "Assine Agora!" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("Dados")).toBeVisible();
  await dialog.getByLabel("Nome completo").fill("Joana Dona");
  await dialog.getByLabel("Endereço").fill("Rua das Flores, 10");
  await dialog.getByLabel("Cidade").fill("Recife");
  await dialog.getByLabel("CEP").fill("50000-000");
  await dialog.getByRole("button", { name: "Próximo" }).click();
  // Personalizar: the company's plan is selected, with its limits; 'Próximo' goes on without clicking the card
  await expect(dialog.getByTestId("own-plan")).toContainText("Usuários: 5 · Conexões: 2 · Filas: 5");
  await screenshot(page, { path: "/tmp/billing-personalize.png" });
  await dialog.getByRole("button", { name: "Próximo" }).click();
  await expect(dialog.getByTestId("checkout-total")).toHaveText("R$ 99,90");
  // the invoice was issued by the press: it is in the list behind the dialog
  await expect(page.getByTestId("invoice-row")).toHaveCount(1);
  await expect(page.getByTestId("invoice-row").first()).toContainText("Em Aberto");
  await dialog.getByRole("button", { name: "Pagar com Pix" }).click();
  await expect(dialog.getByTestId("pix-step")).toBeVisible();

  const [bank] = await Promise.all([context.waitForEvent("page"), dialog.getByTestId("pix-sandbox-link").click()]);
  await expect(bank.getByText("R$ 99,90")).toBeVisible();
  await bank.getByRole("button", { name: "Pagar" }).click();
  await expect(bank.getByTestId("sandbox-status")).toHaveText("Pago");
  // once paid, the bank page no longer offers to pay
  await expect(bank.getByRole("button", { name: "Pagar" })).toHaveCount(0);
  await screenshot(bank, { path: "/tmp/billing-sandbox-paid.png" });

  await expect(page.getByText(/Pagamento confirmado! Sua assinatura vale até \d{2}\/\d{2}\/\d{4}\./)).toBeVisible();
  const company = await db().one<{ due: string; paid: number }>(
    `SELECT to_char(c.due_date, 'YYYY-MM-DD') AS due, (SELECT count(*)::int FROM invoices i WHERE i.company_id = c.id AND i.status = 'paid') AS paid
       FROM companies c JOIN users u ON u.company_id = c.id WHERE u.email = $1`,
    [email],
  );
  expect(company.paid).toBe(1);
  expect(company.due > inDays(7)).toBe(true);
  expect(console.errors).toEqual([]);
});

test("after the due date: login refused with the date, the signed link (refusal and invoice e-mail) pays without logging in, then the login works", async ({ page, browser }) => {
  test.setTimeout(150_000);
  const email = await signUp(page, `Oficina ${stamp()}`.slice(0, 40), "Carlos Dono");
  const { id: companyId } = await db().one<{ id: number }>("SELECT company_id AS id FROM users WHERE email = $1", [email]);
  // the trial ran out three days ago
  await db().exec("UPDATE companies SET due_date = $2 WHERE id = $1", [companyId, inDays(-3)]);

  await page.goto("/login");
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill("segredo123");
  const [refusal] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/api/auth/login")), page.locator('button[type="submit"]').click()]);
  expect(refusal.status()).toBe(401);
  const body = (await refusal.json()) as { error: string; message: string; payUrl: string; token?: string };
  expect(body.error).toBe("ERR_SUBSCRIPTION_EXPIRED");
  expect(body.message).toBe(`Sua assinatura venceu em ${inDays(-3)}`);
  expect(body.token).toBeUndefined();
  const expired = page.getByTestId("login-expired");
  await expect(expired).toContainText(`Sua assinatura venceu em ${br(inDays(-3))}`);
  await expect(page).toHaveURL(/\/login$/);
  await screenshot(page, { path: "/tmp/billing-login-refused.png" });
  const payPath = new URL(body.payUrl).pathname;
  await expect(expired.getByRole("link", { name: "Pagar a fatura" })).toHaveAttribute("href", payPath);

  // the same invoice's e-mail, read in the sandbox mailbox by the super administrator
  const superPage = await browser.newPage();
  await login(superPage, E2E_ADMIN.email, E2E_ADMIN.password);
  await superPage.goto("/email-sandbox");
  await superPage.getByPlaceholder("Filtrar por destinatário").fill(email);
  const mail = superPage.getByTestId("sandbox-mail").filter({ hasText: "Nova fatura" });
  await expect(mail).toHaveCount(1, { timeout: 15_000 });
  await mail.click();
  const text = await superPage.getByTestId("mail-text").innerText();
  expect(text).toContain("está vencida");
  const mailedPath = new URL(/https?:\/\/\S+\/pagar\/\S+/.exec(text)![0]).pathname;
  await superPage.close();

  // a tampered link is refused
  await page.goto(`${mailedPath.slice(0, -3)}abc`);
  await expect(page.getByText("Link de pagamento inválido ou expirado")).toBeVisible();

  // the link from the e-mail: amount, due date, Pix; paid on the sandbox PSP without logging in
  await page.goto(mailedPath);
  await expect(page.getByTestId("pay-link-invoice")).toContainText("R$ 99,90");
  await expect(page.getByTestId("pay-link-invoice")).toContainText(`Vencimento: ${br(inDays(-3))}`);
  await page.getByRole("button", { name: "Pagar com Pix" }).click();
  await expect(page.getByTestId("pix-code")).toHaveValue(/^000201.*br\.gov\.bcb\.pix.*6304[0-9A-F]{4}$/);
  await screenshot(page, { path: "/tmp/billing-pay-link.png" });
  const bankPath = await page.getByTestId("pix-sandbox-link").getAttribute("href");
  const bank = await page.context().newPage();
  await bank.goto(bankPath!);
  await bank.getByRole("button", { name: "Pagar" }).click();
  await expect(bank.getByTestId("sandbox-status")).toHaveText("Pago");
  await bank.close();
  await expect(page.getByTestId("pay-link-paid")).toBeVisible({ timeout: 15_000 });

  // the link from the refusal names the same invoice, now paid
  await page.goto(payPath);
  await expect(page.getByTestId("pay-link-paid")).toBeVisible();
  await page.getByRole("link", { name: "Entrar" }).click();
  await login(page, email, "segredo123");
  await expect(page.getByTestId("greeting")).toContainText("Carlos Dono");
});

test("checkout of an unlimited plan says 'Ilimitado'", async ({ page }) => {
  const tenant = await createTenant({ dueDate: inDays(5) });
  await db().exec("UPDATE plans SET value = 59.9 WHERE id = (SELECT plan_id FROM companies WHERE id = $1)", [tenant.companyId]);
  await login(page, tenant.admin.email);
  await page.goto("/subscription");
  await page.getByRole("button", { name: "Assine Agora!" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nome completo").fill("Ana Souza");
  await dialog.getByLabel("Endereço").fill("Rua A, 1");
  await dialog.getByLabel("Cidade").fill("Recife");
  await dialog.getByLabel("CEP").fill("50000-000");
  await dialog.getByRole("button", { name: "Próximo" }).click();
  await expect(dialog.getByTestId("own-plan")).toContainText("Usuários: Ilimitado · Conexões: Ilimitado · Filas: Ilimitado");
});

test("the super administrator sets the trial and the plan sign-up selects first", async ({ page, browser }) => {
  const name = `Plano Pro ${stamp()}`;
  await db().exec("INSERT INTO plans (name, users, connections, queues, value) VALUES ($1, 10, 3, 8, 199.9)", [name]);
  await login(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.goto("/settings");
  await page.getByRole("tab", { name: "Planos" }).click();
  const card = page.getByTestId("signup-settings");
  await expect(card.getByLabel("Dias de teste")).toHaveValue("7");
  await expect(card.getByTestId("signup-plan-select")).toContainText("Plano Essencial");
  await card.getByLabel("Dias de teste").fill("14");
  await card.getByTestId("signup-plan-select").click();
  // only plans with a value are offered
  await expect(page.getByRole("option", { name: /^Plano Padrão/ })).toHaveCount(0);
  await page.getByRole("option", { name: new RegExp(name) }).click();
  await card.getByRole("button", { name: "Salvar cadastro" }).click();
  await expect(page.getByText("Operação realizada com sucesso!")).toBeVisible();
  await screenshot(page, { path: "/tmp/billing-signup-settings.png" });
  try {
    const visitor = await browser.newPage();
    await visitor.goto("/signup");
    await expect(visitor.getByText("teste grátis por 14 dias")).toBeVisible();
    await expect(visitor.getByTestId("plan-select")).toContainText(name);
    await visitor.close();
  } finally {
    const { id } = await db().one<{ id: number }>("SELECT id FROM plans WHERE name = 'Plano Essencial'");
    await db().exec("UPDATE signup_settings SET trial_days = 7, plan_id = $1", [id]);
  }
});
