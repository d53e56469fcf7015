import { createTenant, expect, login, test } from "../support/fixtures.js";
import { addSandboxConnection, openPhoneAndScan, watchConsole } from "../sandbox/helpers.js";

test("an admin adds a sandbox connection, pairs it from the test phone, disconnects, edits and deletes it", async ({ page, context }) => {
  const t = await createTenant();
  await login(page, t.admin.email);
  // Watched from the login on (the login page's refresh attempt answers 401 by design).
  const consoleErrors = watchConsole(page);
  await page.goto("/connections");
  await expect(page.getByText("Nenhuma conexão cadastrada ainda.")).toBeVisible();

  // Name validation (spec 1-core §5).
  await page.getByTestId("add-connection").click();
  await page.getByTestId("connection-name").fill("A");
  await page.getByTestId("connection-save").click();
  await expect(page.getByText("Too Short!")).toBeVisible();
  await page.getByRole("button", { name: "Cancelar" }).click();

  const id = await addSandboxConnection(page, "Loja Centro");
  const row = page.locator(`[data-connection-id="${id}"]`);
  await expect(row.getByTestId("connection-status")).toHaveAttribute("data-status", "qrcode");
  await page.screenshot({ path: "/tmp/connections-qr.png" });

  // Scanning on the phone page connects it; the empty QR code of the session event closes the dialog.
  const phone = await openPhoneAndScan(context, id);
  await expect(page.getByTestId("qr-code")).toBeHidden();
  await expect(row.getByTestId("connection-status")).toHaveAttribute("data-status", "CONNECTED");
  await expect(row.getByTestId("default-mark")).toBeVisible();
  await expect(row).toContainText(/\d{2}\/\d{2}\/\d{2} \d{2}:\d{2}/);
  await expect(row.getByTestId("open-phone")).toHaveAttribute("href", `/sandbox/${id}`);
  await page.screenshot({ path: "/tmp/connections-connected.png" });
  await phone.close();

  await row.getByTestId("session-disconnect").click();
  await expect(row.getByTestId("connection-status")).toHaveAttribute("data-status", "DISCONNECTED");
  await expect(row.getByTestId("session-start")).toHaveText("Tentar novamente");
  await expect(row.getByTestId("session-newQr")).toHaveText("Novo QR CODE");
  await row.getByTestId("session-newQr").click();
  await expect(page.getByTestId("qr-code").locator("svg")).toBeVisible();
  await page.getByRole("button", { name: "Fechar" }).click();

  await row.getByTestId("edit-connection").click();
  await page.getByTestId("connection-name").fill("Loja Norte");
  await page.getByTestId("connection-save").click();
  await expect(row).toContainText("Loja Norte");

  await row.getByTestId("delete-connection").click();
  await page.getByTestId("confirm-delete").click();
  await expect(page.getByText("Conexão excluída com sucesso!")).toBeVisible();
  await expect(row).toHaveCount(0);
  expect(consoleErrors.errors).toEqual([]);
});

test("an agent sees the connections without the admin buttons", async ({ page, browser }) => {
  const t = await createTenant();
  const adminContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const admin = await adminContext.newPage();
  await login(admin, t.admin.email);
  await addSandboxConnection(admin, "Recepção");
  await adminContext.close();

  await login(page, t.user.email);
  await page.goto("/connections");
  const row = page.getByTestId("connection-row").filter({ hasText: "Recepção" });
  await expect(row).toBeVisible();
  await expect(page.getByTestId("add-connection")).toHaveCount(0);
  await expect(row.getByTestId("edit-connection")).toHaveCount(0);
  await expect(row.locator("[data-testid^=session-]")).toHaveCount(0);
  await expect(row.getByTestId("open-phone")).toBeVisible();
});
