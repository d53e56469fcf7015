import type { Page } from "@playwright/test";
import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { addSandboxConnection, openPhoneAndScan, watchConsole } from "../sandbox/helpers.js";
import { screenshot } from "../support/screenshots.js";

async function contactOf(companyId: number, name: string, number: string): Promise<number> {
  const row = await db().one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, $2, $3) RETURNING id", [companyId, name, number]);
  return row.id;
}

async function ticketCount(companyId: number, contactId: number): Promise<number> {
  const row = await db().one<{ n: number }>("SELECT count(*)::int AS n FROM tickets WHERE company_id = $1 AND contact_id = $2", [companyId, contactId]);
  return row.n;
}

async function connected(page: Page, context: Parameters<typeof openPhoneAndScan>[0], name: string): Promise<number> {
  const whatsappId = await addSandboxConnection(page, name);
  const phone = await openPhoneAndScan(context, whatsappId);
  await phone.close();
  // Connected: the session event closes the QR dialog.
  await expect(page.getByTestId("qr-code")).toBeHidden();
  return whatsappId;
}

test("a contact row opens the new-ticket dialog without creating a ticket, then the contact's existing ticket", async ({ page, context }) => {
  const t = await createTenant();
  const contactId = await contactOf(t.companyId, "Rita Linha", "5511933331111");
  await login(page, t.admin.email);
  const consoleErrors = watchConsole(page);
  await connected(page, context, "Sandbox Contatos");

  await page.goto("/contacts");
  await page.getByTestId("contact-row").filter({ hasText: "Rita Linha" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("Rita Linha")).toBeVisible();
  expect(await ticketCount(t.companyId, contactId)).toBe(0);
  await dialog.getByRole("button", { name: "Cancelar" }).click();
  await expect(dialog).toBeHidden();
  expect(await ticketCount(t.companyId, contactId)).toBe(0);

  await page.getByTestId("contact-row").filter({ hasText: "Rita Linha" }).click();
  await dialog.getByLabel(/Mensagem/).fill("Olá Rita, tudo bem?");
  await dialog.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  const uuid = page.url().split("/").pop();
  expect(await ticketCount(t.companyId, contactId)).toBe(1);

  // The row now leads straight to that ticket.
  await page.goto("/contacts");
  await page.getByTestId("contact-row").filter({ hasText: "Rita Linha" }).click();
  await expect(page).toHaveURL(new RegExp(`/tickets/${uuid}$`));
  expect(await ticketCount(t.companyId, contactId)).toBe(1);
  expect(consoleErrors.errors).toEqual([]);
});

test("the contacts page's new ticket for a contact with an open ticket: toast, the existing ticket, the typed text kept", async ({ page, context }) => {
  const t = await createTenant();
  const contactId = await contactOf(t.companyId, "Otávio Aberto", "5511933332222");
  await login(page, t.admin.email);
  const consoleErrors = watchConsole(page, [/the server responded with a status of 409/]);
  const whatsappId = await connected(page, context, "Sandbox Conflito");
  const open = await db().one<{ uuid: string }>(
    "INSERT INTO tickets (company_id, contact_id, whatsapp_id, status, user_id) VALUES ($1, $2, $3, 'open', $4) RETURNING uuid",
    [t.companyId, contactId, whatsappId, t.admin.id],
  );

  await page.goto("/contacts");
  await page.getByTestId("contact-row").filter({ hasText: "Otávio Aberto" }).getByRole("button", { name: "Abrir ticket" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(/Mensagem/).fill("Texto que não pode se perder");
  await dialog.locator('button[type="submit"]').click();
  await expect(page.getByText("Já existe um ticket aberto para este contato.")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/tickets/${open.uuid}$`));
  await expect(page.getByTestId("message-input")).toHaveValue("Texto que não pode se perder");
  expect(await ticketCount(t.companyId, contactId)).toBe(1);
  await screenshot(page, { path: "/tmp/agent-day-other-open-ticket.png" });
  expect(consoleErrors.errors).toEqual([]);
});

test("the workspace's new ticket: digits are a phone number, a name from 3 letters searches contacts", async ({ page, context }) => {
  const t = await createTenant();
  const maria = await contactOf(t.companyId, "Mariana Busca", "5511933334444");
  await contactOf(t.companyId, "Pedro Outro", "5511933335555");
  await login(page, t.admin.email);
  const consoleErrors = watchConsole(page);
  await connected(page, context, "Sandbox Busca");
  await page.goto("/tickets");
  await page.getByTestId("new-ticket-button").click();
  const field = page.getByTestId("new-ticket-number");
  await field.pressSequentially("Ma");
  await expect(field).toHaveValue("Ma");
  await expect(page.getByText("Digite ao menos 3 letras para buscar pelo nome")).toBeVisible();
  await field.pressSequentially("ri");
  await expect(field).toHaveValue("Mari");
  await page.getByRole("option", { name: /Mariana Busca/ }).click();
  await expect(field).toHaveValue("Mariana Busca");
  await expect(page.getByRole("option", { name: /Pedro Outro/ })).toHaveCount(0);
  await page.getByTestId("new-ticket-message").fill("Oi Mariana!");
  await screenshot(page, { path: "/tmp/agent-day-new-ticket-name.png" });
  await page.getByTestId("new-ticket-submit").click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("header-contact-name")).toHaveText("Mariana Busca");
  expect(await ticketCount(t.companyId, maria)).toBe(1);

  // Letters that match nobody are not a number.
  await page.getByTestId("new-ticket-button").click();
  await field.fill("Zzz Ninguém");
  await page.getByTestId("new-ticket-message").fill("Olá");
  await page.getByTestId("new-ticket-submit").click();
  await expect(page.getByText("Escolha um contato da lista ou digite só os números do telefone")).toBeVisible();
  expect(consoleErrors.errors).toEqual([]);
});

test("the ticket options menu: schedule, contact observations, transfer and delete; schedule opens the dialog for the contact", async ({ page }) => {
  const t = await createTenant();
  const contactId = await contactOf(t.companyId, "Sofia Opções", "5511933336666");
  const ticket = await db().one<{ uuid: string }>("INSERT INTO tickets (company_id, contact_id, status, user_id) VALUES ($1, $2, 'open', $3) RETURNING uuid", [
    t.companyId,
    contactId,
    t.admin.id,
  ]);
  await login(page, t.admin.email);
  await page.goto(`/tickets/${ticket.uuid}`);
  await page.getByTestId("header-options").click();
  const menu = page.getByRole("menu");
  await expect(menu.getByRole("menuitem")).toContainText(["Transferir", "Agendar mensagem", "Dados e observações do contato", "Excluir"]);
  await screenshot(page, { path: "/tmp/agent-day-options-menu.png" });
  await menu.getByRole("menuitem", { name: "Agendar mensagem" }).click();
  // The dialog opens over the conversation, for its contact; the agent stays in the ticket.
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("combobox", { name: "Contato", exact: true })).toHaveValue("Sofia Opções");
  await expect(page).toHaveURL(new RegExp(`/tickets/${ticket.uuid}$`));
  await dialog.getByLabel("Mensagem").fill("Retorno combinado com a Sofia.");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Agendamento salvo com sucesso!")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("ticket-view")).toBeVisible();
  const saved = await db().one<{ body: string; contact_id: number }>("SELECT body, contact_id FROM schedules WHERE company_id = $1", [t.companyId]);
  expect(saved).toEqual({ body: "Retorno combinado com a Sofia.", contact_id: contactId });
});

test("a user or supervisor opening /users reads the refusal, then goes to /tickets after a second", async ({ page }) => {
  const t = await createTenant();
  await login(page, t.user.email);
  await page.goto("/users");
  await expect(page.getByText("Você não possui permissão para acessar essa página! Estamos lhe redirecionando.")).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/users");
  await screenshot(page, { path: "/tmp/agent-day-users-denied.png" });
  await page.waitForURL("**/tickets", { timeout: 3000 });
});

test("sign-up with an empty password says Obrigatório, not Muito curto!", async ({ page }) => {
  await page.goto("/signup");
  await page.getByLabel("Nome da empresa").fill("Padaria Teste");
  await page.getByLabel("Email").fill("padaria@e2e.test");
  await page.getByRole("button", { name: "Cadastrar" }).click();
  const password = page.locator('input[name="password"]');
  await expect(password).toHaveAttribute("aria-invalid", "true");
  const helper = page.locator("#" + (await password.getAttribute("aria-describedby")));
  await expect(helper).toHaveText("Obrigatório");
  await screenshot(page, { path: "/tmp/agent-day-signup-required.png" });
});

test("the first anonymous visit shows the login page without a refused call", async ({ page }) => {
  const refused: string[] = [];
  page.on("response", (res) => {
    if (res.status() === 401) refused.push(res.url());
  });
  const consoleErrors = watchConsole(page);
  await page.goto("/");
  await expect(page.locator('input[name="email"]')).toBeVisible({ timeout: 3000 });
  await expect(page).toHaveURL(/\/login$/);
  await page.waitForTimeout(500);
  expect(refused).toEqual([]);
  expect(consoleErrors.errors).toEqual([]);
  await page.goto("/forgetpsw");
  await expect(page.getByTestId("reset-step-1")).toBeVisible();
  await screenshot(page, { path: "/tmp/agent-day-forgot-password.png" });
});

test("the sandbox test phone remembers its customer across reloads and switches back to an earlier one", async ({ page, context }) => {
  const t = await createTenant();
  await login(page, t.admin.email);
  const whatsappId = await addSandboxConnection(page, "Sandbox Clientes");
  const phone = await context.newPage();
  await phone.goto(`/sandbox/${whatsappId}`);
  await phone.getByTestId("customer-number").fill("5511955550001");
  await phone.getByTestId("customer-name").fill("Cliente Um");
  await phone.waitForTimeout(800);
  await phone.reload();
  await expect(phone.getByTestId("customer-number")).toHaveValue("5511955550001");
  await expect(phone.getByTestId("customer-name")).toHaveValue("Cliente Um");

  await phone.getByRole("button", { name: "Outro cliente" }).click();
  await phone.getByTestId("customer-number").fill("5511955550002");
  await phone.getByTestId("customer-name").fill("Cliente Dois");
  await phone.waitForTimeout(800);
  await phone.getByTestId("customer-recent").locator("..").click();
  await phone.getByRole("option", { name: /Cliente Um/ }).click();
  await expect(phone.getByTestId("customer-number")).toHaveValue("5511955550001");
  await expect(phone.getByTestId("customer-name")).toHaveValue("Cliente Um");
  await phone.reload();
  await expect(phone.getByTestId("customer-number")).toHaveValue("5511955550001");
  await screenshot(phone, { path: "/tmp/agent-day-sandbox-customers.png" });
});
