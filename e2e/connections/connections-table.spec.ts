import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { watchConsole } from "../sandbox/helpers.js";
import { holdElsewhere, rowOf, seedConnection, switchToDarkTheme, dialogShown } from "./helpers.js";
import { screenshot } from "../support/screenshots.js";

test("the table shows each session status with its icon and buttons, kind, number, last update and default mark", async ({ page }) => {
  const t = await createTenant();
  // 17:07 UTC is 14:07 in São Paulo, the browser's time zone.
  const updatedAt = "2024-03-05T17:07:00Z";
  await seedConnection(t.companyId, { name: "Lendo QR", status: "qrcode", provider: "baileys", qrcode: "2@seeded-qr-code", updatedAt });
  await seedConnection(t.companyId, { name: "Sem sessão", status: "DISCONNECTED", updatedAt });
  await seedConnection(t.companyId, { name: "Conectada", status: "CONNECTED", number: "5511988887777", isDefault: true, updatedAt });
  await seedConnection(t.companyId, { name: "Pareando", status: "PAIRING", provider: "baileys", updatedAt });
  await seedConnection(t.companyId, { name: "Expirada", status: "TIMEOUT", provider: "baileys", updatedAt });
  await seedConnection(t.companyId, { name: "Abrindo", status: "OPENING", updatedAt });
  await seedConnection(t.companyId, { name: "Oficial Loja", status: "CONNECTED", provider: "official", number: "5511977776666", updatedAt });
  await login(page, t.admin.email);
  const consoleErrors = watchConsole(page);
  await page.goto("/connections");
  await expect(page.getByTestId("connection-row")).toHaveCount(7);

  const status = async (name: string, value: string) => expect(rowOf(page, name).getByTestId("connection-status")).toHaveAttribute("data-status", value);
  await status("Lendo QR", "qrcode");
  await expect(rowOf(page, "Lendo QR").getByTestId("session-qrcode")).toHaveText("QR CODE");
  await expect(rowOf(page, "Lendo QR").locator("[data-testid^=session-]")).toHaveCount(1);

  await status("Sem sessão", "DISCONNECTED");
  await expect(rowOf(page, "Sem sessão").getByTestId("session-start")).toHaveText("Tentar novamente");
  await expect(rowOf(page, "Sem sessão").getByTestId("session-newQr")).toHaveText("Novo QR CODE");
  await expect(rowOf(page, "Sem sessão").locator("[data-testid^=session-]")).toHaveCount(2);

  for (const [name, value] of [
    ["Conectada", "CONNECTED"],
    ["Pareando", "PAIRING"],
    ["Expirada", "TIMEOUT"],
  ] as const) {
    await status(name, value);
    await expect(rowOf(page, name).getByTestId("session-disconnect")).toHaveText("Desconectar");
    await expect(rowOf(page, name).locator("[data-testid^=session-]")).toHaveCount(1);
  }

  await status("Abrindo", "OPENING");
  const connecting = rowOf(page, "Abrindo").getByRole("button", { name: "Conectando" });
  await expect(connecting).toBeDisabled();
  await expect(rowOf(page, "Abrindo").locator("[data-testid^=session-]")).toHaveCount(0);

  // Kinds, numbers, last update (dd/MM/yy HH:mm) and the one default mark.
  await expect(rowOf(page, "Conectada").getByTestId("connection-provider-label")).toHaveText("Sandbox (teste)");
  await expect(rowOf(page, "Pareando").getByTestId("connection-provider-label")).toHaveText("WhatsApp (QR Code)");
  await expect(rowOf(page, "Oficial Loja").getByTestId("connection-provider-label")).toHaveText("Oficial (API Cloud)");
  await expect(rowOf(page, "Conectada").getByTestId("connection-number")).toHaveText("5511988887777");
  await expect(rowOf(page, "Abrindo").getByTestId("connection-number")).toHaveText("—");
  await expect(rowOf(page, "Conectada").getByTestId("connection-updated-at")).toHaveText("05/03/24 14:07");
  await expect(page.getByTestId("default-mark")).toHaveCount(1);
  await expect(rowOf(page, "Conectada").getByTestId("default-mark")).toBeVisible();

  // The status icon explains itself on hover.
  await rowOf(page, "Expirada").getByTestId("connection-status").hover();
  await expect(page.getByRole("tooltip")).toHaveText("Tempo esgotado");

  // No duplicated number: no banner.
  await expect(page.getByTestId("duplicated-number")).toHaveCount(0);
  await screenshot(page, { path: "/tmp/connections-table-light.png", fullPage: true });

  // The seeded QR code opens in the dialog with the instructions.
  await rowOf(page, "Lendo QR").getByTestId("session-qrcode").click();
  await expect(page.getByTestId("qr-image")).toBeVisible();
  await expect(page.getByTestId("qr-help")).toHaveText(/Abra o WhatsApp > Aparelhos conectados > Conectar aparelho/);
  await dialogShown(page);
  await screenshot(page, { path: "/tmp/connections-qr-light.png" });
  await page.getByRole("button", { name: "Fechar" }).click();
  await expect(page.getByTestId("qr-image")).toBeHidden();

  await switchToDarkTheme(page);
  await expect(page.getByTestId("connection-row")).toHaveCount(7);
  await screenshot(page, { path: "/tmp/connections-table-dark.png", fullPage: true });
  await rowOf(page, "Lendo QR").getByTestId("session-qrcode").click();
  await expect(page.getByTestId("qr-image")).toBeVisible();
  await dialogShown(page);
  await screenshot(page, { path: "/tmp/connections-qr-dark.png" });
  expect(consoleErrors.errors).toEqual([]);
});

test("a red banner warns when several connected sessions share one number", async ({ page }) => {
  const t = await createTenant();
  await seedConnection(t.companyId, { name: "Loja A", status: "CONNECTED", number: "5511955554444", isDefault: true });
  const b = await seedConnection(t.companyId, { name: "Loja B", status: "DISCONNECTED", number: "5511955554444" });
  await login(page, t.admin.email);
  await page.goto("/connections");
  await expect(page.getByTestId("connection-row")).toHaveCount(2);
  // The same number twice, but only one session connected: no warning.
  await expect(page.getByTestId("duplicated-number")).toHaveCount(0);

  await holdElsewhere(b);
  await db().exec("UPDATE whatsapps SET status = 'CONNECTED' WHERE id = $1", [b]);
  await page.reload();
  const banner = page.getByTestId("duplicated-number");
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("5511955554444");
  await expect(banner).toContainText("problemas de sincronização e tickets duplicados");
  await screenshot(page, { path: "/tmp/connections-duplicated.png" });
});

test("agents and supervisors see the connections without add, edit, delete or session buttons", async ({ page }) => {
  const t = await createTenant();
  await seedConnection(t.companyId, { name: "Recepção", status: "DISCONNECTED", isDefault: true });
  await seedConnection(t.companyId, { name: "Vendas", status: "CONNECTED", number: "5511944443333", provider: "baileys" });
  for (const email of [t.user.email, t.supervisor.email]) {
    await login(page, email);
    await page.goto("/connections");
    await expect(page.getByTestId("connection-row")).toHaveCount(2);
    await expect(rowOf(page, "Vendas").getByTestId("connection-status")).toHaveAttribute("data-status", "CONNECTED");
    await expect(page.getByTestId("add-connection")).toHaveCount(0);
    await expect(page.getByTestId("edit-connection")).toHaveCount(0);
    await expect(page.getByTestId("delete-connection")).toHaveCount(0);
    await expect(page.locator("[data-testid^=session-]")).toHaveCount(0);
    await expect(page.getByRole("columnheader", { name: "Sessão" })).toHaveCount(0);
    // The sandbox phone writes as any customer: only admins get it.
    await expect(rowOf(page, "Recepção").getByTestId("open-phone")).toHaveCount(0);
    await page.evaluate(() => localStorage.clear());
    await page.context().clearCookies();
  }
});
