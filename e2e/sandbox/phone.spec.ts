import { createTenant, expect, login, test } from "../support/fixtures.js";
import { addSandboxConnection, customerWrites, watchConsole } from "./helpers.js";
import { screenshot } from "../support/screenshots.js";

test("the test phone waits for its QR scan, remembers the customer and works on a phone-sized screen", async ({ page, context }) => {
  const t = await createTenant();
  await login(page, t.admin.email);
  const whatsappId = await addSandboxConnection(page, "Sandbox Celular");

  const phone = await context.newPage();
  const consoleErrors = watchConsole(phone);
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(`/sandbox/${whatsappId}`);
  await expect(phone.getByText("Esta conexão não está conectada.")).toBeVisible();
  await expect(phone.getByTestId("phone-input")).toBeDisabled();
  await phone.getByTestId("scan-button").click();
  await expect(phone.getByTestId("phone-status")).toHaveText("online");
  await expect(phone.getByTestId("phone-input")).toBeEnabled();
  // The connections page follows the pairing live.
  await expect(page.locator(`[data-connection-id="${whatsappId}"]`).getByTestId("connection-status")).toHaveAttribute("data-status", "CONNECTED");

  await phone.getByTestId("customer-number").fill("5511944443333");
  await phone.getByTestId("customer-name").fill("Carlos Celular");
  await customerWrites(phone, "Testando pelo celular");
  await phone.reload();
  await expect(phone.getByTestId("customer-number")).toHaveValue("5511944443333");
  await expect(phone.getByTestId("customer-name")).toHaveValue("Carlos Celular");
  await expect(phone.getByTestId("phone-message").filter({ hasText: "Testando pelo celular" })).toBeVisible();
  await phone.getByTestId("sandbox-phone").scrollIntoViewIfNeeded();
  await screenshot(phone, { path: "/tmp/sandbox-phone-narrow.png", fullPage: true });

  // Another customer starts an empty conversation.
  await phone.getByRole("button", { name: "Outro cliente" }).click();
  await expect(phone.getByTestId("customer-number")).not.toHaveValue("5511944443333");
  await expect(phone.getByTestId("phone-message")).toHaveCount(0);
  expect(consoleErrors.errors).toEqual([]);
});
