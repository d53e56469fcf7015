import { createTenant, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

const stamp = () => `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;

test("sign-up validates, creates the company and its admin, then sends to /login", async ({ page }) => {
  await page.goto("/signup?companyId=999");
  await expect(page).toHaveURL(/\/signup/);
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(page.getByText("Obrigatório").first()).toBeVisible();

  await page.getByLabel("Nome da empresa").fill("A");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Senha").fill("123");
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(page.getByText("Muito curto!").first()).toBeVisible();
  await expect(page.getByText("E-mail inválido")).toBeVisible();

  const email = `signup-${stamp()}@e2e.test`;
  await page.getByLabel("Nome da empresa").fill("Padaria Pão Quente");
  await page.getByLabel("Seu nome").fill("Paulo Padeiro");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Telefone").fill("11999998888");
  await page.getByLabel("Senha").fill("segredo123");
  await page.getByTestId("plan-select").click();
  await page.getByRole("option").first().click();
  await screenshot(page, { path: "/tmp/signup.png" });
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(page.getByText("Cadastro realizado com sucesso! Faça seu login.")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await login(page, email, "segredo123");
  // the admin is greeted by the person's name, with the company's
  await expect(page.getByTestId("greeting")).toContainText("Paulo Padeiro");
  await expect(page.getByTestId("greeting")).toContainText("Padaria Pão Quente");
});

test("sign-up with an e-mail already registered shows the server's reason", async ({ page }) => {
  const t = await createTenant();
  await page.goto("/signup");
  await page.getByLabel("Nome da empresa").fill("Outra Empresa");
  await page.getByLabel("Seu nome").fill("Otávio Outro");
  await page.getByLabel("Email").fill(t.admin.email);
  await page.getByLabel("Telefone").fill("11999998888");
  await page.getByLabel("Senha").fill("segredo123");
  await page.getByTestId("plan-select").click();
  await page.getByRole("option").first().click();
  await page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(page.getByText("Este e-mail já está cadastrado.")).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);
});
