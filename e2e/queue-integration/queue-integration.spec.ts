import type { Page } from "@playwright/test";
import { buildUser, createTenant, db, expect, login, test } from "../support/fixtures.js";
import { screenshot, themeShots } from "../support/screenshots.js";

const shoot = (page: Page, name: string) => themeShots(page, name, () => expect(page.getByTestId("integration-row").first()).toBeVisible());

test("queue integrations: add a Typebot with its defaults, edit it into a webhook, delete it", async ({ page }) => {
  test.setTimeout(90_000);
  const tenant = await createTenant();
  const root = await buildUser(db(), tenant.companyId, { profile: "admin", super: true, name: "Sara Super" });
  await login(page, root.email);
  await page.goto("/queue-integration");
  await expect(page.getByRole("heading", { name: "Integrações" })).toBeVisible();
  await expect(page.getByText("Nenhuma integração.")).toBeVisible();

  await page.getByRole("button", { name: "Adicionar projeto" }).click();
  const dialog = page.getByRole("dialog", { name: "Adicionar projeto" });
  await dialog.getByRole("button", { name: "Salvar" }).click();
  // an empty name is required, not "too short" (the type and URL are required too)
  await expect(dialog.getByText("Muito curto!")).toHaveCount(0);
  await expect(dialog.getByText("Obrigatório")).toHaveCount(3);
  // Typebot's defaults (spec 3 §9)
  await expect(dialog.getByLabel("Tempo em minutos para expirar uma conversa")).toHaveValue("1");
  await expect(dialog.getByLabel("Intervalo (ms) entre mensagens")).toHaveValue("1000");
  await dialog.locator('input[name="name"]').fill("Robô de triagem");
  await dialog.locator('input[name="urlN8N"]').fill("https://typebot.example.com");
  await dialog.locator('input[name="typebotSlug"]').fill("triagem");
  await dialog.getByLabel("Palavra para encerrar o robô (passa a um atendente)").fill("#sair");
  await screenshot(page, { path: "/tmp/queue-integration-dialog-typebot.png" });
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId("integration-row").filter({ hasText: "Robô de triagem" });
  await expect(row.getByText("Typebot", { exact: true })).toBeVisible();
  const stored = await db().one<{ typebot_expires: number; typebot_delay_message: number; project_name: string }>(
    "SELECT typebot_expires, typebot_delay_message, project_name FROM queue_integrations WHERE company_id = $1",
    [tenant.companyId],
  );
  expect(stored).toEqual({ typebot_expires: 1, typebot_delay_message: 1000, project_name: "Robô de triagem" });

  // Dialogflow's fields appear with its type
  await page.getByRole("button", { name: "Adicionar projeto" }).click();
  const df = page.getByRole("dialog", { name: "Adicionar projeto" });
  await df.getByRole("combobox", { name: /Tipo/ }).click();
  await page.getByRole("option", { name: "Dialogflow" }).click();
  await expect(df.locator('input[name="projectName"]')).toBeVisible();
  await expect(df.getByRole("button", { name: "Testar sessão" })).toBeVisible();
  await expect(df.locator('input[name="typebotSlug"]')).toHaveCount(0);
  await screenshot(page, { path: "/tmp/queue-integration-dialog-dialogflow.png" });
  await df.getByRole("button", { name: "Cancelar" }).click();

  await shoot(page, "queue-integration-page");

  await row.getByRole("button", { name: "Editar integração" }).click();
  const edit = page.getByRole("dialog", { name: "Editar projeto" });
  await expect(edit.locator('input[name="typebotSlug"]')).toHaveValue("triagem");
  await edit.getByRole("combobox", { name: /Tipo/ }).click();
  await page.getByRole("option", { name: "Webhook" }).click();
  await expect(edit.locator('input[name="typebotSlug"]')).toHaveCount(0);
  await edit.locator('input[name="urlN8N"]').fill("https://hooks.example.com/atende");
  await edit.getByRole("button", { name: "Salvar" }).click();
  await expect(edit).toBeHidden();
  await expect(row.getByText("Webhook", { exact: true })).toBeVisible();
  await expect(row.getByText("https://hooks.example.com/atende")).toBeVisible();

  await row.getByRole("button", { name: "Excluir integração" }).click();
  const confirm = page.getByRole("dialog", { name: "Excluir a integração “Robô de triagem”?" });
  await confirm.getByRole("button", { name: "Confirmar" }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText("Nenhuma integração.")).toBeVisible();
});

test("queue integrations: a company whose plan lacks integrations is told so and sent to / after a second", async ({ page }) => {
  const tenant = await createTenant({ plan: { flags: { useIntegrations: false } } });
  const root = await buildUser(db(), tenant.companyId, { profile: "admin", super: true, name: "Sara Super" });
  await login(page, root.email);
  await page.goto("/queue-integration");
  await expect(page.getByText("Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Integrações" })).toHaveCount(0);
  await page.waitForURL((url) => url.pathname === "/", { timeout: 5000 });
});

test("queue integrations: the connection dialog's Integration tab chooses the bot of the connection", async ({ page }) => {
  test.setTimeout(60_000);
  const tenant = await createTenant();
  const root = await buildUser(db(), tenant.companyId, { profile: "admin", super: true, name: "Sara Super" });
  await db().exec("INSERT INTO queue_integrations (company_id, type, name, url_n8n) VALUES ($1, 'n8n', 'Fluxo de vendas', 'https://n8n.example.com/webhook/1')", [tenant.companyId]);
  const { id } = await db().one<{ id: number }>(
    "INSERT INTO whatsapps (company_id, name, provider, status, is_default) VALUES ($1, 'Loja Sul', 'sandbox', 'DISCONNECTED', true) RETURNING id",
    [tenant.companyId],
  );
  await login(page, root.email);
  await page.goto("/connections");
  await page.getByTestId("edit-connection").first().click();
  await page.getByTestId("tab-integration").click();
  await page.getByTestId("integration-select").click();
  await page.getByRole("option", { name: "Fluxo de vendas (n8n)" }).click();
  await screenshot(page, { path: "/tmp/queue-integration-connection-tab.png" });
  await page.getByTestId("connection-save").click();
  await expect(page.getByTestId("connection-save")).toBeHidden();
  const row = await db().one<{ name: string | null }>("SELECT (SELECT name FROM queue_integrations i WHERE i.id = w.integration_id) AS name FROM whatsapps w WHERE id = $1", [id]);
  expect(row.name).toBe("Fluxo de vendas");
});
