import type { Page } from "@playwright/test";
import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

/**
 * The campaign forms (WhatsApp, SMS, e-mail) check the CSV when it is chosen with the analyses' own
 * header rule (packages/shared campaignFileColumns): a comma-separated file or one without the
 * mandatory headers shows the spec's message in the form at once, and the form does not go on to
 * 'Campanha criada'.
 */

async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option }).click();
}

const file = (text: string) => ({ name: "clientes.csv", mimeType: "text/csv", buffer: Buffer.from(text) });

async function checksTheFile(page: Page, input: string) {
  const alert = page.getByRole("alert").filter({ hasText: /arquivo|cabeçalhos/ });
  await page.getByTestId(input).setInputFiles(file("telefone,cpf,email,nome\n11999990001,1,a@x.com,Ana\n"));
  // shown on choosing, before any click on 'Revisar campanha'
  await expect(alert).toHaveText("O arquivo deve ter colunas separadas por ponto e vírgula (;).");
  await page.getByTestId(input).setInputFiles(file("telefone;email;nome\n11999990001;a@x.com;Ana\n"));
  await expect(alert).toHaveText("Faltam os seguintes cabeçalhos obrigatórios: cpf");
  await screenshot(page, { path: `/tmp/webwalk-file-check-${input}.png` });
  // the review keeps the message and opens no summary
  const review = page.getByRole("button", { name: "Revisar campanha" });
  await review.click();
  await expect(page.getByText("Faltam os seguintes cabeçalhos obrigatórios: cpf")).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Resumo da Campanha" })).toHaveCount(0);
  await expect(page.getByText("Campanha criada")).toHaveCount(0);
  await expect(review).toBeEnabled();
  // a good file clears it, even one chosen while a review still waits: that review, judged on the
  // old file, does not put its message back
  await review.click();
  await page.getByTestId(input).setInputFiles(file("\uFEFFTelefone;CPF;Email;nome;vencimento\r\n11999990001;1;a@x.com;Ana;10/12\r\n"));
  await expect(page.getByText(/clientes\.csv \(/)).toBeVisible();
  await expect(review).toBeEnabled();
  expect(await alert.count()).toBe(0);
}

test("WhatsApp form: the file is checked when chosen, with the spec's messages", async ({ page }) => {
  const tenant = await createTenant();
  await login(page, tenant.supervisor.email);
  await page.goto("/new-campaign");
  await expect(page.getByTestId("form-loading")).toBeHidden();
  await checksTheFile(page, "campaign-file");
});

test("SMS form: the file is checked when chosen, and its required fields are marked", async ({ page }) => {
  const tenant = await createTenant();
  await db().exec("INSERT INTO cost_centers (company_id, name) VALUES ($1, 'Marketing SMS')", [tenant.companyId]);
  await login(page, tenant.supervisor.email);
  await page.goto("/new-campaign");
  await choose(page, "Canal", "SMS");
  await expect(page.getByTestId("form-loading")).toBeHidden();
  await expect(page.getByRole("textbox", { name: "Título da campanha" })).toHaveAttribute("required", "");
  // MUI marks a required field's label with an asterisk
  for (const label of ["Título da campanha", "Centro de custo", "Template"]) {
    await expect(page.locator("label.Mui-required").filter({ hasText: label })).toHaveText(`${label} *`);
  }
  await checksTheFile(page, "sms-campaign-file");
});

test("E-mail form: the file is checked when chosen, with the spec's messages", async ({ page }) => {
  const tenant = await createTenant();
  await login(page, tenant.supervisor.email);
  await page.goto("/new-campaign");
  await choose(page, "Canal", "E-mail");
  // the channel is a URL parameter: the WhatsApp form (same file input test id) stays until the
  // navigation commits, so wait for the e-mail form's own field before choosing the file
  await expect(page).toHaveURL(/channel=email/);
  await expect(page.getByRole("combobox", { name: "Remetente" })).toBeVisible();
  await expect(page.getByTestId("form-loading")).toBeHidden();
  await checksTheFile(page, "campaign-file");
});
