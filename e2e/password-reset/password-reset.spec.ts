import { createTenant, expect, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

test("an unknown e-mail reads 'Email não encontrado'; a known one moves to the code step with the password rules", async ({ page }) => {
  const tenant = await createTenant();
  await page.goto("/login");
  await page.getByRole("link", { name: "Esqueceu a senha?" }).click();
  await expect(page).toHaveURL(/\/forgetpsw$/);
  await expect(page.getByRole("link", { name: /Cadastre-se/ })).toHaveAttribute("href", "/signup");
  await expect(page.getByRole("link", { name: /Entre!/ })).toHaveAttribute("href", "/login");

  const step1 = page.getByTestId("reset-step-1");
  await step1.getByRole("button", { name: "Enviar código" }).click();
  await expect(step1.getByText("Obrigatório")).toBeVisible();
  await step1.getByLabel("Email").fill("nao-eh-email");
  await step1.getByRole("button", { name: "Enviar código" }).click();
  await expect(step1.getByText("E-mail inválido")).toBeVisible();

  await step1.getByLabel("Email").fill(`ninguem-${Date.now()}@example.com`);
  await step1.getByRole("button", { name: "Enviar código" }).click();
  await expect(step1.getByText("Email não encontrado")).toBeVisible();
  await screenshot(page, { path: "/tmp/password-reset-step1.png" });

  await step1.getByLabel("Email").fill(tenant.user.email);
  await step1.getByRole("button", { name: "Enviar código" }).click();
  const step2 = page.getByTestId("reset-step-2");
  await expect(step2).toBeVisible();
  await expect(step2).toContainText(tenant.user.email);

  await step2.getByLabel("Código de verificação").fill("000000");
  await step2.getByLabel("Nova senha", { exact: false }).first().fill("fraca");
  await step2.getByLabel("Confirme a nova senha").fill("outra");
  await step2.getByRole("button", { name: "Redefinir senha" }).click();
  await expect(step2.getByText("Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.")).toBeVisible();
  await expect(step2.getByText("As senhas não correspondem")).toBeVisible();

  // A valid password with a wrong code: the server refuses and the page stays on step 2.
  await step2.getByLabel("Nova senha", { exact: false }).first().fill("NovaSenha1");
  await step2.getByLabel("Confirme a nova senha").fill("NovaSenha1");
  await step2.getByRole("button", { name: "Redefinir senha" }).click();
  await expect(step2.getByText("Código inválido ou expirado.")).toBeVisible();
  await expect(page).toHaveURL(/\/forgetpsw$/);
  await screenshot(page, { path: "/tmp/password-reset-step2.png" });
});
