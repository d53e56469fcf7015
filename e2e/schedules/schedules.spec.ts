import { dateFieldInput } from "../support/date-fields.js";
import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

// A 1x1 transparent PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

test("a schedule is created from a contact link with variables and an image, and a sent one is read-only", async ({ page }) => {
  const tenant = await createTenant();
  const c = tenant.companyId;
  const paula = await db().one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Paula Agendada', '5511944445555') RETURNING id", [c]);
  await db().exec("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Pedro Outro', '5511944446666')", [c]);
  await login(page, tenant.admin.email);

  // ?contactId= opens the add dialog for that contact, sending in one hour by default.
  await page.goto(`/schedules?contactId=${paula.id}`);
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("combobox", { name: "Contato", exact: true })).toHaveValue("Paula Agendada");
  // dd/MM/yyyy HH:mm in Portuguese, the company's wall clock (São Paulo, as the browser here).
  const sendAt = await dateFieldInput(dialog, "sendAt").inputValue();
  expect(sendAt).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  await expect(dialog.getByTestId("time-zone-hint")).toContainText("America/Sao Paulo (GMT-03:00)");
  const minutesAhead = await page.evaluate((v) => {
    const [d, mo, y, h, mi] = v.split(/[/ :]/).map(Number) as [number, number, number, number, number];
    return (new Date(y, mo - 1, d, h, mi).getTime() - Date.now()) / 60000;
  }, sendAt);
  expect(minutesAhead).toBeGreaterThan(55);
  expect(minutesAhead).toBeLessThan(65);

  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("Obrigatório")).toBeVisible();
  await dialog.getByLabel("Mensagem").fill("Oi");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("Mensagem muito curta")).toBeVisible();

  await dialog.getByLabel("Mensagem").fill("Olá , seu pedido saiu.");
  // Put the cursor after "Olá " and insert the variable there.
  await dialog.getByLabel("Mensagem").evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(4, 4));
  await dialog.getByText("{{firstName}}", { exact: true }).click();
  await expect(dialog.getByLabel("Mensagem")).toHaveValue("Olá {{firstName}}, seu pedido saiu.");
  await dialog.getByTestId("schedule-file").setInputFiles({ name: "pedido.png", mimeType: "image/png", buffer: PNG });
  await expect(dialog.getByText("pedido.png")).toBeVisible();
  await screenshot(page, { path: "/tmp/schedules-dialog.png" });
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Agendamento salvo com sucesso!")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/schedules$/);

  await page.reload();
  const row = page.getByTestId("schedule-row").filter({ hasText: "Paula Agendada" });
  await expect(row).toContainText("Olá {{firstName}}, seu pedido saiu.");
  await expect(row).toContainText("Agendada");
  await row.click();
  await expect(dialog.getByTestId("schedule-status")).toHaveText("Agendada");
  await expect(dialog.getByText("pedido.png")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancelar" }).click();

  // A new one through the contact search (from 3 characters).
  await page.getByRole("button", { name: "Novo agendamento" }).click();
  await dialog.getByRole("combobox", { name: "Contato", exact: true }).fill("Ped");
  await page.getByRole("option", { name: /Pedro Outro/ }).click();
  await dialog.getByLabel("Mensagem").fill("Lembrete da sua visita amanhã.");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByTestId("schedule-row")).toHaveCount(2);
  await screenshot(page, { path: "/tmp/schedules-list.png" });

  // Once sent it cannot be saved again; a failure reads 'Erro de Envio'.
  await db().exec("UPDATE schedules SET status = 'ENVIADA', sent_at = now() WHERE company_id = $1 AND contact_id = $2", [c, paula.id]);
  await db().exec("UPDATE schedules SET status = 'ERRO', error = 'Conexão desconectada' WHERE company_id = $1 AND contact_id <> $2", [c, paula.id]);
  await page.reload();
  await expect(page.getByTestId("schedule-row").filter({ hasText: "Pedro Outro" })).toContainText("Erro de Envio");
  await page.getByTestId("schedule-row").filter({ hasText: "Paula Agendada" }).click();
  await expect(dialog.getByTestId("schedule-status")).toHaveText("Enviada");
  await expect(dialog.getByRole("button", { name: "Salvar" })).toBeDisabled();
  await screenshot(page, { path: "/tmp/schedules-sent.png" });
});
