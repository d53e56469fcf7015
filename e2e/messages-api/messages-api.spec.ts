import type { Page } from "@playwright/test";
import { buildUser, createTenant, db, expect, login, test } from "../support/fixtures.js";

const TOKEN = `tok-e2e-${Date.now()}-abcdef0123456789`;

/** A sandbox connection created and scanned through the API with the logged-in user's session, then given an API token. */
async function apiConnection(page: Page, token: string): Promise<number> {
  const auth = { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem("token"))}` };
  const created = await page.request.post("/api/whatsapp", {
    headers: auth,
    data: { name: "Loja API", provider: "sandbox", queueIds: [], greetingMessage: "", complationMessage: "" },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  const id = (await created.json()).id as number;
  expect((await page.request.post(`/api/sandbox/${id}/scan`, { headers: auth })).ok()).toBeTruthy();
  expect((await page.request.put(`/api/whatsapp/${id}`, { headers: auth, data: { token } })).ok()).toBeTruthy();
  return id;
}

const outbox = (whatsappId: number) =>
  db().many<{ number: string; body: string; media_name: string | null }>(
    "SELECT number, body, media_name FROM sandbox_messages WHERE whatsapp_id = $1 AND direction = 'outbound' ORDER BY id",
    [whatsappId],
  );

test("a super administrator reads the docs and sends a text and a file from the test forms", async ({ page }) => {
  const t = await createTenant();
  const sup = await buildUser(db(), t.companyId, { profile: "admin", super: true, name: "Sofia Super" });
  await login(page, sup.email);
  const wa = await apiConnection(page, TOKEN);

  await page.goto("/messages-api");
  await expect(page.getByRole("heading", { name: "API de Mensagens" })).toBeVisible();
  const origin = new URL(page.url()).origin;
  await expect(page.getByTestId("api-url")).toHaveText(`${origin}/api/messages/send`);
  await expect(page.getByTestId("code-block").filter({ hasText: "curl -X POST" }).first()).toContainText(`"${origin}/api/messages/send"`);
  await expect(page.getByTestId("code-block").filter({ hasText: "medias=@" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Erros" })).toContainText("ERR_WAPP_NOT_INITIALIZED");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  await page.screenshot({ path: "/tmp/messages-api.png", fullPage: true });

  // Empty form: required fields.
  const text = page.getByTestId("text-test-form");
  await text.getByRole("button", { name: "Enviar" }).click();
  await expect(text.getByText("Obrigatório")).toHaveCount(3);

  // The connection picker fills both tokens.
  await page.getByTestId("connection-picker").click();
  await page.getByRole("option", { name: "Loja API" }).click();
  await expect(text.getByLabel("Token")).toHaveValue(TOKEN);
  await expect(page.getByTestId("media-test-form").getByLabel("Token")).toHaveValue(TOKEN);

  await text.getByLabel("Número").fill("5511988887777");
  await text.getByLabel("Mensagem").fill("Seu pedido saiu para entrega");
  await text.getByRole("button", { name: "Enviar" }).click();
  const result = text.getByTestId("send-result");
  await expect(result).toHaveAttribute("data-result", "success");
  await expect(result).toContainText("Mensagem enviada com sucesso");
  expect(await outbox(wa)).toEqual([{ number: "5511988887777", body: "Seu pedido saiu para entrega", media_name: null }]);

  // A wrong token: the translated error, and the user's own session is untouched.
  await text.getByLabel("Token").fill("token-errado");
  await text.getByRole("button", { name: "Enviar" }).click();
  await expect(result).toHaveAttribute("data-result", "error");
  await expect(result).toHaveAttribute("data-code", "ERR_SESSION_EXPIRED");
  await expect(result).toContainText("Falha no envio (HTTP 401)");
  await expect(result).toContainText("Token ausente ou inválido.");
  await page.screenshot({ path: "/tmp/messages-api-error.png" });
  await page.reload();
  await expect(page).toHaveURL(/\/messages-api$/);
  await expect(page.getByRole("heading", { name: "API de Mensagens" })).toBeVisible();

  // A file.
  const media = page.getByTestId("media-test-form");
  await media.getByLabel("Token").fill(TOKEN);
  await media.getByLabel("Número").fill("5511988887777");
  await media.getByRole("button", { name: "Enviar" }).click();
  await expect(media.getByText("Por favor, selecione um arquivo.")).toBeVisible();
  await media.getByTestId("media-file").setInputFiles({ name: "boleto.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 boleto") });
  await expect(media.getByTestId("media-file-name")).toHaveText("boleto.pdf");
  await media.getByLabel("Legenda (opcional)").fill("Segue o boleto");
  await media.getByRole("button", { name: "Enviar" }).click();
  await expect(media.getByTestId("send-result")).toHaveAttribute("data-result", "success");
  const sent = await outbox(wa);
  expect(sent).toHaveLength(2);
  expect(sent[1]).toMatchObject({ number: "5511988887777", media_name: "boleto.pdf" });

  // A bad number is refused with its translated reason.
  await text.getByLabel("Token").fill(TOKEN);
  await text.getByLabel("Número").fill("123");
  await text.getByLabel("Mensagem").fill("Oi");
  await text.getByRole("button", { name: "Enviar" }).click();
  await expect(result).toHaveAttribute("data-code", "ERR_WAPP_INVALID_CONTACT");
  await expect(result).toContainText("Número inválido ou sem WhatsApp.");

  // Narrow and dark: nothing sticks out sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => localStorage.setItem("preferredTheme", "dark"));
  await page.reload();
  await expect(page.getByTestId("api-docs")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: "/tmp/messages-api-narrow-dark.png" });
  await page.getByRole("table", { name: "Erros" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: "/tmp/messages-api-narrow-dark-errors.png" });
  await page.getByTestId("text-test-form").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "/tmp/messages-api-narrow-dark-forms.png" });
});

test("an administrator who is not super is sent away from the page", async ({ page }) => {
  const t = await createTenant();
  await login(page, t.admin.email);
  await page.goto("/messages-api");
  await expect(page).toHaveURL(/\/tickets$/);
});

test("a super administrator whose plan lacks the external API is sent away from the page", async ({ page }) => {
  const noApi = await createTenant({ plan: { flags: { useExternalApi: false } } });
  const sup = await buildUser(db(), noApi.companyId, { profile: "admin", super: true });
  await login(page, sup.email);
  await page.goto("/messages-api");
  await expect(page).toHaveURL(/\/tickets$/);
});
