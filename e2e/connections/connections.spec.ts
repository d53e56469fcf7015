import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { dialogShown } from "./helpers.js";
import { addSandboxConnection, openPhoneAndScan, watchConsole } from "../sandbox/helpers.js";
import { screenshot } from "../support/screenshots.js";

test("an admin adds a sandbox connection, pairs it from the test phone, disconnects, edits and deletes it", async ({ page, context }) => {
  const t = await createTenant();
  await login(page, t.admin.email);
  // Watched from the login on (the login page's refresh attempt answers 401 by design); GET /prompt may be absent (404).
  const consoleErrors = watchConsole(page, [/404/]);
  await page.goto("/connections");
  await expect(page.getByText("Nenhuma conexão cadastrada ainda.")).toBeVisible();

  const id = await addSandboxConnection(page, "Loja Centro");
  const row = page.locator(`[data-connection-id="${id}"]`);
  await expect(row.getByTestId("connection-status")).toHaveAttribute("data-status", "qrcode");
  await expect(page.getByTestId("qr-image")).toBeVisible();
  await expect(page.getByTestId("qr-help")).toContainText("Escanear QR");

  // Scanning on the phone page connects it; the empty QR code of the session event closes the dialog.
  const phone = await openPhoneAndScan(context, id);
  await expect(page.getByTestId("qr-code")).toBeHidden();
  await expect(row.getByTestId("connection-status")).toHaveAttribute("data-status", "CONNECTED");
  await expect(row.getByTestId("default-mark")).toBeVisible();
  await expect(row.getByTestId("connection-updated-at")).toHaveText(/^\d{2}\/\d{2}\/\d{2} \d{2}:\d{2}$/);
  await expect(row.getByTestId("open-phone")).toHaveAttribute("href", `/sandbox/${id}`);
  await phone.close();

  await row.getByTestId("session-disconnect").click();
  const confirm = page.getByRole("dialog");
  await expect(confirm).toContainText("A sessão do WhatsApp será encerrada");
  await confirm.getByRole("button", { name: "Cancelar" }).click();
  await expect(row.getByTestId("connection-status")).toHaveAttribute("data-status", "CONNECTED");
  await row.getByTestId("session-disconnect").click();
  await page.getByRole("dialog").getByRole("button", { name: "Desconectar" }).click();
  await expect(row.getByTestId("connection-status")).toHaveAttribute("data-status", "DISCONNECTED");
  await expect(row.getByTestId("session-start")).toHaveText("Tentar novamente");
  await expect(row.getByTestId("session-newQr")).toHaveText("Novo QR CODE");
  await row.getByTestId("session-newQr").click();
  await expect(page.getByTestId("qr-image")).toBeVisible();
  await expect(row.getByTestId("session-qrcode")).toHaveText("QR CODE");
  await page.getByRole("button", { name: "Fechar" }).click();
  // The QR CODE button reopens the same live code.
  await row.getByTestId("session-qrcode").click();
  await expect(page.getByTestId("qr-image")).toBeVisible();
  await page.getByRole("button", { name: "Fechar" }).click();

  await row.getByTestId("edit-connection").click();
  await page.getByTestId("connection-name").fill("Loja Norte");
  await page.getByTestId("connection-save").click();
  await expect(page.getByText("Conexão salva com sucesso!").first()).toBeVisible();
  await expect(row).toContainText("Loja Norte");

  await row.getByTestId("delete-connection").click();
  await expect(page.getByRole("dialog")).toContainText("Excluir a conexão Loja Norte?");
  await page.getByTestId("confirm-delete").click();
  await expect(page.getByText("Conexão excluída com sucesso!")).toBeVisible();
  await expect(row).toHaveCount(0);
  expect(await db().maybe("SELECT id FROM whatsapps WHERE id = $1", [id])).toBeNull();
  expect(consoleErrors.errors).toEqual([]);
});

test("an admin adds a WhatsApp (QR Code) connection: it is created with provider baileys and its session starts", async ({ page }) => {
  const t = await createTenant();
  await login(page, t.admin.email);
  await page.goto("/connections");
  await page.getByTestId("add-connection").click();
  await page.getByTestId("connection-name").fill("Celular da loja");
  await page.getByTestId("connection-provider").click();
  await page.getByRole("option", { name: "WhatsApp (QR Code)" }).click();
  await expect(page.getByText("Conecta um celular com WhatsApp pela leitura do QR Code.")).toBeVisible();
  const created = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/api/whatsapp"));
  await page.getByTestId("connection-save").click();
  const body = (await (await created).json()) as { id: number; provider: string };
  expect(body.provider).toBe("baileys");
  await expect(page.getByText("Conexão salva com sucesso!")).toBeVisible();

  const row = page.locator(`[data-connection-id="${body.id}"]`);
  await expect(row.getByTestId("connection-provider-label")).toHaveText("WhatsApp (QR Code)");
  // No live WhatsApp here: the session is opening (or shows a code if the network answers). The dialog
  // explains how to link the phone either way.
  await expect(page.getByTestId("qr-help")).toHaveText(/Abra o WhatsApp > Aparelhos conectados > Conectar aparelho/);
  const stored = await db().one<{ provider: string; status: string }>("SELECT provider, status FROM whatsapps WHERE id = $1", [body.id]);
  expect(stored.provider).toBe("baileys");
  expect(["OPENING", "qrcode", "DISCONNECTED", "TIMEOUT"]).toContain(stored.status);
  await dialogShown(page);
  await screenshot(page, { path: "/tmp/connections-baileys.png" });
  await page.getByRole("button", { name: "Fechar" }).click();

  // Deleting it stops the session attempts.
  await row.getByTestId("delete-connection").click();
  await page.getByTestId("confirm-delete").click();
  await expect(page.getByText("Conexão excluída com sucesso!")).toBeVisible();
  await expect(row).toHaveCount(0);
});
