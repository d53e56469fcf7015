import type { Page } from "@playwright/test";
import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { watchConsole } from "../sandbox/helpers.js";
import { themeShots } from "../support/screenshots.js";

async function chooseType(page: Page, label: string) {
  await page.getByTestId("campaign-type").click();
  await page.getByRole("option", { name: label }).click();
}

test("SMS templates: add with the form rules, variables and segments, edit, view, search and more rows on scroll", async ({ page }) => {
  test.setTimeout(120_000);
  const consoleWatch = watchConsole(page);
  const tenant = await createTenant();
  await login(page, tenant.supervisor.email);
  await page.goto("/templates");
  // WhatsApp (read-only, from Meta) has no add button; SMS and e-mail do
  await expect(page.getByRole("button", { name: "Adicionar" })).toHaveCount(0);
  await chooseType(page, "SMS");
  await expect(page.getByText("Nenhum template de SMS. Crie o primeiro em Adicionar.")).toBeVisible();

  await page.getByRole("button", { name: "Adicionar" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Novo template de SMS" })).toBeVisible();
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("Obrigatório")).toHaveCount(2);
  await dialog.getByLabel("Título").fill("A");
  await dialog.getByLabel("Conteúdo").fill("x".repeat(1025));
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("Muito curto!")).toBeVisible();
  await expect(dialog.getByText("Muito longo!")).toBeVisible();

  await dialog.getByLabel("Título").fill("Lembrete de boleto");
  await dialog.getByLabel("Conteúdo").fill("Olá {{nome}}, seu boleto de {{valor}} vence amanhã");
  await expect(dialog.getByTestId("sms-variables")).toContainText("{{nome}}");
  await expect(dialog.getByTestId("sms-variables")).toContainText("{{valor}}");
  // 'á' is outside GSM-7's default alphabet: UCS-2, 70 per segment
  await expect(dialog.getByTestId("sms-segments")).toHaveText("UCS-2 · 50 caracteres · 1 segmento(s) · 20 restantes no segmento");
  await expect(dialog.getByTestId("sms-non-gsm")).toContainText("á");
  // { and } are in GSM-7's extension table: two septets each
  await dialog.getByLabel("Conteúdo").fill("Ola {{nome}}, seu boleto de {{valor}} vence amanha");
  await expect(dialog.getByTestId("sms-segments")).toHaveText("GSM-7 · 58 caracteres · 1 segmento(s) · 102 restantes no segmento");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Template salvo com sucesso.")).toBeVisible();
  const rows = page.getByTestId("message-template-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Lembrete de boleto");

  await rows.first().getByRole("button", { name: "Editar" }).click();
  await expect(dialog.getByLabel("Título")).toHaveValue("Lembrete de boleto");
  await dialog.getByLabel("Título").fill("Lembrete de fatura");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog).toBeHidden();
  await expect(rows.first()).toContainText("Lembrete de fatura");
  const stored = await db().one<{ title: string; content: string }>("SELECT title, content FROM sms_templates WHERE company_id = $1", [tenant.companyId]);
  expect(stored).toEqual({ title: "Lembrete de fatura", content: "Ola {{nome}}, seu boleto de {{valor}} vence amanha" });

  await rows.first().getByRole("button", { name: "Visualizar" }).click();
  await expect(dialog.getByRole("heading", { name: "Visualizar template de SMS" })).toBeVisible();
  await expect(dialog.getByTestId("sms-view-content")).toHaveValue("Ola {{nome}}, seu boleto de {{valor}} vence amanha");
  await dialog.getByRole("button", { name: "Fechar" }).click();
  await expect(dialog).toBeHidden();

  // 25 more, older: the first page holds 20, the rest come on scroll
  for (let i = 1; i <= 25; i++) {
    await db().exec("INSERT INTO sms_templates (company_id, title, content, modified_at) VALUES ($1, $2, 'Oi', now() - ($3 || ' minutes')::interval)", [
      tenant.companyId,
      `Aviso ${String(i).padStart(2, "0")}`,
      String(i),
    ]);
  }
  await page.reload();
  await chooseType(page, "SMS");
  await expect(rows).toHaveCount(20);
  await rows.last().scrollIntoViewIfNeeded();
  await expect(rows).toHaveCount(26);
  await page.getByRole("searchbox", { name: "Pesquisar por título..." }).fill("aviso 1");
  await expect(rows).toHaveCount(10);
  await page.getByRole("searchbox", { name: "Pesquisar por título..." }).fill("fatura");
  await expect(rows).toHaveCount(1);

  await themeShots(page, "sms-templates", async () => {
    await chooseType(page, "SMS");
    await rows.first().getByRole("button", { name: "Editar" }).click();
    await expect(dialog.getByTestId("sms-segments")).toBeVisible();
  });
  expect(consoleWatch.errors).toEqual([]);
});
