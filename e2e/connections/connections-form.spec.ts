import type { Page } from "@playwright/test";
import { buildQueue, createTenant, db, expect, login, test } from "../support/fixtures.js";
import { watchConsole } from "../sandbox/helpers.js";
import { rowOf, seedConnection, switchToDarkTheme, dialogShown } from "./helpers.js";
import { screenshot } from "../support/screenshots.js";

async function pickQueues(page: Page, testId: string, names: string[]) {
  await page.getByTestId(testId).click();
  for (const n of names) await page.getByRole("option", { name: n }).click();
  await page.keyboard.press("Escape");
}

async function pick(page: Page, testId: string, name: string) {
  await page.getByTestId(testId).click();
  await page.getByRole("option", { name }).click();
}

test("the edit modal saves every field of a connection, and the greeting is required with two queues", async ({ page }) => {
  const t = await createTenant();
  await buildQueue(db(), t.companyId, { name: "Vendas", color: "#16a34a" });
  await buildQueue(db(), t.companyId, { name: "Suporte", color: "#dc2626" });
  await buildQueue(db(), t.companyId, { name: "Financeiro", color: "#7c3aed" });
  await seedConnection(t.companyId, { name: "Antiga", status: "DISCONNECTED", isDefault: true });
  const id = await seedConnection(t.companyId, { name: "Loja Centro", status: "DISCONNECTED" });
  await login(page, t.admin.email);
  // GET /prompt answers 404 where AI prompts are not installed: the choice is hidden, not an error.
  const consoleErrors = watchConsole(page, [/404/]);
  const puts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "PUT" && r.url().endsWith(`/api/whatsapp/${id}`)) puts.push(r.postData() ?? "");
  });
  await page.goto("/connections");
  await rowOf(page, "Loja Centro").getByTestId("edit-connection").click();
  await expect(page.getByTestId("connection-name")).toHaveValue("Loja Centro");
  await expect(page.getByTestId("connection-provider")).toHaveText("Sandbox (teste)");

  // Geral
  await page.getByTestId("connection-name").fill("Loja Norte");
  await page.getByTestId("connection-default").check();
  await pickQueues(page, "connection-queues", ["Vendas", "Suporte"]);
  await pick(page, "connection-transferQueue", "Financeiro");
  await dialogShown(page);
  await screenshot(page, { path: "/tmp/connections-modal-light.png" });

  // Two queues and no greeting: refused before any request, on the Mensagens tab.
  await page.getByTestId("connection-save").click();
  await expect(page.getByTestId("tab-messages")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByText("A mensagem de saudação é obrigatória quando há mais de uma fila.")).toBeVisible();
  expect(puts).toEqual([]);

  // Mensagens
  await page.getByTestId("connection-greetingMessage").fill("Olá {{name}}! Escolha uma opção:");
  await page.getByTestId("connection-complationMessage").fill("Atendimento encerrado. Obrigado!");
  await page.getByTestId("connection-outOfHoursMessage").fill("Estamos fora do horário.");
  await page.getByTestId("connection-ratingMessage").fill("Dê uma nota de 1 a 5.");
  await dialogShown(page);
  await screenshot(page, { path: "/tmp/connections-modal-messages.png" });
  // Automação
  await page.getByTestId("tab-automation").click();
  await expect(page.getByTestId("connection-expiresTicket")).toHaveValue("0");
  await expect(page.getByTestId("connection-maxUseBotQueues")).toHaveValue("3");
  await page.getByTestId("connection-expiresTicket").fill("45");
  await page.getByTestId("connection-expiresInactiveMessage").fill("Encerrado por inatividade.");
  await page.getByTestId("connection-timeUseBotQueues").fill("10");
  await page.getByTestId("connection-maxUseBotQueues").fill("5");
  await dialogShown(page);
  await screenshot(page, { path: "/tmp/connections-modal-automation.png" });
  // Integração: GET /prompt is absent here, so only the token shows. The server generates it and shows it once.
  await page.getByTestId("tab-integration").click();
  await expect(page.getByTestId("token-hint")).toHaveText("Nenhum token gerado ainda.");
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByTestId("generate-token").click();
  const token = await page.getByTestId("connection-token").inputValue();
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await page.getByTestId("copy-token").click();
  await expect(page.getByText("Token copiado!")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await expect(page.getByText("Copie agora: ele não será mostrado novamente.", { exact: false })).toBeVisible();
  await dialogShown(page);
  await screenshot(page, { path: "/tmp/connections-modal-integration.png" });
  // it works at once (the session is not connected: past authentication, refused with 409)
  const sendWith = (tk: string) =>
    page.request.post("/api/messages/send", { headers: { authorization: `Bearer ${tk}` }, data: { number: "5511999990000", body: "oi" } });
  expect((await sendWith(token)).status()).toBe(409);
  await page.getByTestId("connection-save").click();
  await expect(page.getByText("Conexão salva com sucesso!")).toBeVisible();
  expect(puts).toHaveLength(1);

  // The star moved to this connection.
  await expect(rowOf(page, "Loja Norte").getByTestId("default-mark")).toBeVisible();
  await expect(page.getByTestId("default-mark")).toHaveCount(1);

  // Everything is there after a reload.
  await page.reload();
  await rowOf(page, "Loja Norte").getByTestId("edit-connection").click();
  await expect(page.getByTestId("connection-name")).toHaveValue("Loja Norte");
  await expect(page.getByTestId("connection-default")).toBeChecked();
  await expect(page.getByTestId("connection-queues")).toHaveText("Suporte, Vendas");
  await expect(page.getByTestId("connection-transferQueue")).toHaveText("Financeiro");
  await page.getByTestId("tab-messages").click();
  await expect(page.getByTestId("connection-greetingMessage")).toHaveValue("Olá {{name}}! Escolha uma opção:");
  await expect(page.getByTestId("connection-complationMessage")).toHaveValue("Atendimento encerrado. Obrigado!");
  await expect(page.getByTestId("connection-outOfHoursMessage")).toHaveValue("Estamos fora do horário.");
  await expect(page.getByTestId("connection-ratingMessage")).toHaveValue("Dê uma nota de 1 a 5.");
  await page.getByTestId("tab-automation").click();
  await expect(page.getByTestId("connection-expiresTicket")).toHaveValue("45");
  await expect(page.getByTestId("connection-expiresInactiveMessage")).toHaveValue("Encerrado por inatividade.");
  await expect(page.getByTestId("connection-timeUseBotQueues")).toHaveValue("10");
  await expect(page.getByTestId("connection-maxUseBotQueues")).toHaveValue("5");
  // afterwards only its last characters; a new token replaces it after a confirmation
  await page.getByTestId("tab-integration").click();
  await expect(page.getByTestId("token-hint")).toHaveText(`O token atual termina em …${token.slice(-4)}`);
  await expect(page.getByTestId("connection-token")).toHaveCount(0);
  await page.getByTestId("generate-token").click();
  await expect(page.getByText("Um novo token substitui o atual", { exact: false })).toBeVisible();
  await page.getByTestId("confirm-generate-token").click();
  const replaced = await page.getByTestId("connection-token").inputValue();
  expect(replaced).not.toBe(token);
  expect((await sendWith(token)).status()).toBe(401);
  expect((await sendWith(replaced)).status()).toBe(409);
  await page.getByRole("button", { name: "Cancelar" }).click();

  const row = await db().one<{ name: string; is_default: boolean; token: string; token_hint: string; expires_ticket: number; max_use_bot_queues: number; queues: number }>(
    "SELECT name, is_default, token, token_hint, expires_ticket, max_use_bot_queues, (SELECT count(*)::int FROM whatsapp_queues q WHERE q.whatsapp_id = w.id) AS queues FROM whatsapps w WHERE id = $1",
    [id],
  );
  expect(row).toEqual({ name: "Loja Norte", is_default: true, token: "", token_hint: replaced.slice(-4), expires_ticket: 45, max_use_bot_queues: 5, queues: 2 });

  // The only default connection cannot be switched off (ERR_NO_OTHER_WHATSAPP), shown without a request.
  await rowOf(page, "Loja Norte").getByTestId("edit-connection").click();
  await page.getByTestId("connection-default").uncheck();
  await page.getByTestId("connection-save").click();
  await expect(page.getByText("Deve haver pelo menos um WhatsApp padrão.")).toBeVisible();
  expect(puts).toHaveLength(1);

  await switchToDarkTheme(page);
  await rowOf(page, "Loja Norte").getByTestId("edit-connection").click();
  await expect(page.getByTestId("connection-name")).toHaveValue("Loja Norte");
  await dialogShown(page);
  await screenshot(page, { path: "/tmp/connections-modal-dark.png" });
  expect(consoleErrors.errors).toEqual([]);
});

test("the name rule of §5 applies on the form, and the official connection keeps its verified name", async ({ page }) => {
  const t = await createTenant();
  await seedConnection(t.companyId, { name: "+55 11 97777-6666", status: "CONNECTED", provider: "official", number: "5511977776666", isDefault: true });
  await login(page, t.admin.email);
  await page.goto("/connections");

  await page.getByTestId("add-connection").click();
  await page.getByTestId("connection-save").click();
  await expect(page.getByText("Obrigatório")).toBeVisible();
  await page.getByTestId("connection-name").fill("A");
  await page.getByTestId("connection-save").click();
  await expect(page.getByText("Muito curto!")).toBeVisible();
  await page.getByTestId("connection-name").fill("x".repeat(51));
  await page.getByTestId("connection-save").click();
  await expect(page.getByText("Muito longo!")).toBeVisible();
  await page.getByRole("button", { name: "Cancelar" }).click();

  await rowOf(page, "+55 11 97777-6666").getByTestId("edit-connection").click();
  await expect(page.getByTestId("connection-name")).toBeDisabled();
  await expect(page.getByTestId("connection-provider")).toHaveText("Oficial (API Cloud)");
  await page.getByTestId("tab-messages").click();
  await page.getByTestId("connection-complationMessage").fill("Obrigado pelo contato!");
  await page.getByTestId("connection-save").click();
  await expect(page.getByText("Conexão salva com sucesso!")).toBeVisible();
  const row = await db().one<{ name: string; complation_message: string }>(
    "SELECT name, complation_message FROM whatsapps WHERE company_id = $1",
    [t.companyId],
  );
  expect(row).toEqual({ name: "+55 11 97777-6666", complation_message: "Obrigado pelo contato!" });
});
