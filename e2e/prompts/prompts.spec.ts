import type { Page } from "@playwright/test";
import { buildQueue, buildUser, createTenant, db, expect, login, test } from "../support/fixtures.js";
import { themeShots } from "../support/screenshots.js";

const shots = (page: Page, name: string, open?: () => Promise<void>) =>
  themeShots(page, name, async () => {
    await page.waitForLoadState("networkidle");
    if (open) await open();
  });

test("a super user creates, edits and deletes an AI prompt; the key is never shown back", async ({ page }) => {
  const tenant = await createTenant();
  await buildQueue(db(), tenant.companyId, { name: "Vendas", color: "#2e7d32" });
  const su = await buildUser(db(), tenant.companyId, { profile: "admin", super: true, name: "Super" });
  await login(page, su.email);
  await page.goto("/prompts");
  await expect(page.getByText("Nenhum prompt cadastrado.")).toBeVisible();

  await page.getByRole("button", { name: "Adicionar prompt" }).click();
  const add = page.getByRole("dialog", { name: "Adicionar prompt" });
  await add.getByRole("textbox", { name: "Nome" }).fill("Assistente de vendas");
  await add.getByRole("textbox", { name: "Prompt", exact: true }).fill("Você é a assistente da Loja Azul. Responda em português, com frases curtas.");
  await add.getByLabel("Chave da API").fill("sk-e2e-secret-4321");
  await add.getByRole("button", { name: "Salvar" }).click();
  await expect(add.getByText("Informe o setor")).toBeVisible();
  await add.getByTestId("prompt-queue").click();
  await page.getByRole("option", { name: "Vendas" }).click();
  await add.getByTestId("prompt-voice").click();
  await expect(page.getByRole("option")).toHaveCount(16);
  await page.getByRole("option", { name: "pt-BR-FranciscaNeural" }).click();
  await add.getByLabel("Chave de voz (Azure)").fill("azure-e2e-8765");
  await add.getByRole("textbox", { name: "Região da voz" }).fill("brazilsouth");
  await add.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Prompt adicionado com sucesso!")).toBeVisible();
  const row = page.getByTestId("prompt-row").filter({ hasText: "Assistente de vendas" });
  await expect(row).toContainText("Vendas");
  await expect(row).toContainText("Francisca");
  await expect(page.locator("body")).not.toContainText("sk-e2e-secret-4321");
  await shots(page, "prompts-list");

  await row.getByRole("button", { name: "Editar prompt" }).click();
  const edit = page.getByRole("dialog", { name: "Editar prompt" });
  await expect(edit.getByText("Salva: ••••4321. Deixe em branco para manter.")).toBeVisible();
  await expect(edit.getByLabel("Chave da API")).toHaveValue("");
  await edit.getByRole("textbox", { name: "Nome" }).fill("Assistente da loja");
  await edit.getByLabel("Temperatura").fill("3");
  await edit.getByRole("button", { name: "Salvar" }).click();
  await expect(edit.getByText("Máximo 2")).toBeVisible();
  await edit.getByLabel("Temperatura").fill("0.5");
  await edit.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Prompt editado com sucesso!")).toBeVisible();
  await expect(page.getByTestId("prompt-row").filter({ hasText: "Assistente da loja" })).toBeVisible();
  const stored = await db().one<{ temperature: string; api_key: string }>("SELECT temperature, api_key FROM prompts WHERE company_id = $1", [tenant.companyId]);
  expect(Number(stored.temperature)).toBe(0.5);
  expect(stored.api_key).not.toContain("sk-e2e");

  // the queue dialog offers the company's prompts
  await page.goto("/queues");
  await page.getByTestId("queue-row").filter({ hasText: "Vendas" }).getByRole("button", { name: "Editar fila" }).click();
  const queueDialog = page.getByRole("dialog");
  await queueDialog.getByRole("combobox", { name: "Prompt" }).click();
  await page.getByRole("option", { name: "Assistente da loja" }).click();
  await queueDialog.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  const queue = await db().one<{ prompt_id: number | null }>("SELECT prompt_id FROM queues WHERE company_id = $1", [tenant.companyId]);
  expect(queue.prompt_id).not.toBeNull();
  await page.goto("/prompts");

  await shots(page, "prompts-dialog", async () => {
    await page.getByTestId("prompt-row").first().getByRole("button", { name: "Editar prompt" }).click();
    await expect(page.getByRole("dialog", { name: "Editar prompt" })).toBeVisible();
    // the dialog's fade-in
    await page.waitForTimeout(400);
  });
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await page.getByTestId("prompt-row").first().getByRole("button", { name: "Excluir prompt" }).click();
  await page.getByRole("dialog").getByRole("button", { name: /confirmar|excluir|sim/i }).click();
  await expect(page.getByText("Prompt excluído com sucesso!")).toBeVisible();
  await expect(page.getByTestId("prompt-row")).toHaveCount(0);
});

test("an administrator without the super flag is told and sent to /", async ({ page }) => {
  const tenant = await createTenant();
  await login(page, tenant.admin.email);
  await page.goto("/prompts");
  await expect(page.getByText("Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.")).toBeVisible();
  await expect(page).not.toHaveURL(/\/prompts/, { timeout: 5000 });
});
