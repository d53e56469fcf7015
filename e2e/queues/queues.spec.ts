import { createTenant, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

test("an administrator creates a queue with opening hours, and a second queue cannot reuse its colour", async ({ page }) => {
  const tenant = await createTenant();
  await login(page, tenant.admin.email);
  await page.goto("/queues");
  await expect(page.getByRole("heading", { name: "Filas & Chatbot" })).toBeVisible();

  await page.getByRole("button", { name: "Adicionar fila" }).click();
  const dialog = page.getByRole("dialog");
  // A new queue starts with a colour (the palette's first free one); validation: name too short.
  await expect(dialog.locator('input[name="color"]')).toHaveValue("#B71C1C");
  await dialog.getByLabel("Nome").fill("A");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("Muito curto!")).toBeVisible();

  await dialog.getByLabel("Nome").fill("Suporte");
  await dialog.getByRole("button", { name: "Escolha uma cor" }).click();
  await page.getByRole("option", { name: "#1976D2" }).click();
  await expect(dialog.locator('input[name="color"]')).toHaveValue("#1976D2");
  await dialog.getByLabel("Mensagem de saudação").fill("Olá! Bem-vindo ao suporte.");
  await dialog.getByLabel("Mensagem de fora de expediente").fill("Estamos fechados agora.");

  await dialog.getByRole("tab", { name: "Horários de atendimento" }).click();
  await expect(dialog.getByText("Clique em salvar para registar as alterações")).toBeVisible();
  const saturdayEnd = dialog.locator('input[name="saturday-end"]');
  await expect(saturdayEnd).toHaveValue("12:00");
  await saturdayEnd.fill("");
  await saturdayEnd.pressSequentially("1330");
  await expect(saturdayEnd).toHaveValue("13:30");
  await screenshot(page, { path: "/tmp/queues-dialog-hours.png" });
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Queue saved successfully")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("queue-row").filter({ hasText: "Suporte" })).toBeVisible();

  await page.reload();
  const row = page.getByTestId("queue-row").filter({ hasText: "Suporte" });
  await expect(row).toContainText("#1976D2");
  await expect(row).toContainText("Olá! Bem-vindo ao suporte.");
  await row.getByRole("button", { name: "Editar fila" }).click();
  await page.getByRole("dialog").getByRole("tab", { name: "Horários de atendimento" }).click();
  await expect(page.getByRole("dialog").locator('input[name="saturday-end"]')).toHaveValue("13:30");
  await page.getByRole("dialog").getByRole("button", { name: "Cancelar" }).click();

  // Same colour on a second queue: the server refuses it and the dialog says why.
  await page.getByRole("button", { name: "Adicionar fila" }).click();
  const second = page.getByRole("dialog");
  await second.getByLabel("Nome").fill("Vendas");
  await second.locator('input[name="color"]').fill("#1976D2");
  await second.getByRole("button", { name: "Salvar" }).click();
  await expect(second.getByText("Esta cor já está em uso, escolha outra.")).toBeVisible();
  await screenshot(page, { path: "/tmp/queues-color-taken.png" });
  await second.locator('input[name="color"]').fill("#388E3C");
  await second.getByRole("button", { name: "Salvar" }).click();
  await expect(second).toBeHidden();
  await expect(page.getByTestId("queue-row")).toHaveCount(2);
  await screenshot(page, { path: "/tmp/queues-list.png" });
});
