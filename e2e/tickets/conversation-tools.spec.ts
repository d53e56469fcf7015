import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { addSandboxConnection, customerWrites, openPhoneAndScan, watchConsole } from "../sandbox/helpers.js";
import { screenshot } from "../support/screenshots.js";

test("quick replies, reply, delete, signature, contact notes and search in a conversation", async ({ page, context }) => {
  test.setTimeout(120_000);
  const t = await createTenant();
  await db().exec("INSERT INTO quick_messages (company_id, user_id, shortcode, message, geral) VALUES ($1, $2, 'ola', $3, true)", [
    t.companyId,
    t.admin.id,
    "Olá! Seja bem-vindo à nossa loja, em que posso ajudar hoje?",
  ]);
  await login(page, t.admin.email);
  const consoleErrors = watchConsole(page);
  const whatsappId = await addSandboxConnection(page, "Sandbox Ferramentas");
  const phone = await openPhoneAndScan(context, whatsappId);
  await phone.getByTestId("customer-number").fill("5511955554444");
  await phone.getByTestId("customer-name").fill("João Comprador");
  await customerWrites(phone, "Oi, bom dia");

  await page.goto("/tickets");
  await page.getByTestId("tab-pending").click();
  await page.getByTestId("list-pending").getByTestId("ticket-item").filter({ hasText: "João Comprador" }).getByTestId("ticket-action-accept").click();
  const view = page.getByTestId("ticket-view");
  await expect(view).toHaveAttribute("data-status", "open");
  const input = page.getByTestId("message-input");

  // '/' quick replies: 35-character previews, Enter picks, Enter sends.
  await input.fill("/ol");
  const suggestions = page.getByTestId("quick-replies");
  await expect(suggestions).toContainText("/ola");
  await expect(suggestions).toContainText("Olá! Seja bem-vindo à nossa loja, e...");
  await input.press("Enter");
  await expect(input).toHaveValue("Olá! Seja bem-vindo à nossa loja, em que posso ajudar hoje?");
  await input.press("Enter");
  await expect(view.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: "em que posso ajudar hoje?" })).toBeVisible();

  // Reply to the customer's message: the new message carries the quote.
  const customerMsg = view.locator('[data-testid="message"][data-from-me="false"]').filter({ hasText: "Oi, bom dia" });
  await customerMsg.getByRole("button", { name: "Opções da mensagem" }).click();
  await page.getByRole("menuitem", { name: "Responder" }).click();
  await expect(page.getByTestId("reply-preview")).toContainText("Oi, bom dia");
  await input.fill("Bom dia, João!");
  await input.press("Enter");
  const reply = view.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: "Bom dia, João!" });
  await expect(reply.getByTestId("quoted-message")).toContainText("Oi, bom dia");
  await expect(page.getByTestId("reply-preview")).toHaveCount(0);

  // Signature off: the agent's name is not prefixed; the choice is remembered.
  await page.getByTestId("sign-toggle").click();
  expect(await page.evaluate(() => localStorage.getItem("signOption"))).toBe("false");
  await input.fill("Mensagem sem assinatura");
  await input.press("Enter");
  const unsigned = view.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: "Mensagem sem assinatura" });
  await expect(unsigned).toBeVisible();
  await expect(unsigned).not.toContainText("Ana Admin");

  // Delete an own message.
  await unsigned.getByRole("button", { name: "Opções da mensagem" }).click();
  await page.getByRole("menuitem", { name: "Excluir" }).click();
  await page.getByTestId("confirm-button").click();
  await expect(unsigned.getByTestId("message-deleted")).toBeVisible();
  // A customer's message offers no delete.
  await customerMsg.getByRole("button", { name: "Opções da mensagem" }).click();
  await expect(page.getByRole("menuitem", { name: "Excluir" })).toHaveCount(0);
  await page.keyboard.press("Escape");

  // Contact drawer and notes.
  await page.getByTestId("open-contact").click();
  const drawer = page.getByTestId("contact-drawer");
  await expect(drawer).toContainText("João Comprador");
  await expect(drawer).toContainText("+5511955554444");
  await drawer.getByTestId("note-input").fill("A");
  await drawer.getByTestId("note-save").click();
  await expect(drawer).toContainText("A observação deve ter ao menos 2 caracteres");
  await drawer.getByTestId("note-input").fill("Prefere contato à tarde");
  await drawer.getByTestId("note-save").click();
  await expect(page.getByText("Observação adicionada com sucesso!")).toBeVisible();
  await expect(drawer).toContainText("Prefere contato à tarde");
  await screenshot(page, { path: "/tmp/tickets-drawer.png" });
  await drawer.getByRole("button", { name: "Excluir" }).click();
  await page.getByTestId("confirm-button").click();
  await expect(page.getByText("Observação excluída com sucesso!")).toBeVisible();
  await expect(drawer).not.toContainText("Prefere contato à tarde");

  // Search by message text.
  await page.getByTestId("tab-search").click();
  await page.getByTestId("search-input").fill("bom dia");
  await expect(page.getByTestId("list-search").getByTestId("ticket-item").filter({ hasText: "João Comprador" })).toBeVisible();
  await page.getByTestId("search-input").fill("palavra-que-nao-existe");
  await expect(page.getByTestId("tickets-empty")).toBeVisible();
  await screenshot(page, { path: "/tmp/tickets-search.png" });

  expect(consoleErrors.errors).toEqual([]);
});
