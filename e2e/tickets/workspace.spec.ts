import { buildQueue, createTenant, db, expect, login, test } from "../support/fixtures.js";
import { addSandboxConnection, customerWrites, openPhoneAndScan, watchConsole } from "../sandbox/helpers.js";
import { screenshot } from "../support/screenshots.js";

test("a sandbox customer writes, an agent accepts, replies, transfers, tags, closes and reopens the ticket", async ({ page, context }) => {
  test.setTimeout(120_000);
  // The refused close answers 400, which Chromium logs as a failed resource: expected here, nothing else.
  const t = await createTenant();
  await buildQueue(db(), t.companyId, { name: "Vendas", color: "#2563eb" });
  await buildQueue(db(), t.companyId, { name: "Suporte", color: "#16a34a" });
  await db().exec("INSERT INTO settings (company_id, key, value) VALUES ($1, 'requireTagBeforeClosing', 'enabled')", [t.companyId]);
  await db().exec("INSERT INTO tags (company_id, name, color) VALUES ($1, 'VIP', '#e11d48')", [t.companyId]);

  await login(page, t.admin.email);
  const consoleErrors = watchConsole(page, [/the server responded with a status of 400/]);
  const whatsappId = await addSandboxConnection(page, "Sandbox Loja");
  const phone = await openPhoneAndScan(context, whatsappId);
  const phoneErrors = watchConsole(phone);
  await phone.getByTestId("customer-number").fill("5511988887777");
  await phone.getByTestId("customer-name").fill("Maria Cliente");
  await customerWrites(phone, "Olá, preciso de ajuda com meu pedido");

  // The ticket waits in Aguardando with its unread badge.
  await page.goto("/tickets");
  await expect(page.getByTestId("ticket-placeholder")).toBeVisible();
  await page.getByTestId("tab-pending").click();
  const waiting = page.getByTestId("list-pending").getByTestId("ticket-item").filter({ hasText: "Maria Cliente" });
  await expect(waiting).toBeVisible();
  await expect(waiting.getByTestId("ticket-unread")).toHaveText("1");
  await expect(page.getByTestId("badge-pending")).toHaveText("1");
  await expect(waiting.getByTestId("tag-queue")).toHaveText("SEM FILA");
  await expect(waiting.getByTestId("tag-origin")).toHaveText("RECEPTIVO");
  await expect(waiting.getByTestId("tag-connection")).toHaveText("Sandbox Loja");
  await screenshot(page, { path: "/tmp/tickets-pending.png" });

  // Accept: the ticket opens for the agent.
  await waiting.getByTestId("ticket-action-accept").click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  const view = page.getByTestId("ticket-view");
  await expect(view).toHaveAttribute("data-status", "open");
  await expect(view.getByTestId("header-contact-name")).toHaveText("Maria Cliente");
  await expect(view.getByTestId("message").filter({ hasText: "preciso de ajuda" })).toBeVisible();
  await expect(page.getByTestId("badge-open")).toHaveText("1");

  // Reply; the customer's phone shows it and marks it read, and the agent sees the read ticks.
  await page.getByTestId("message-input").fill("Olá Maria! Como posso ajudar?");
  await page.getByTestId("message-input").press("Enter");
  const mine = view.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: "Como posso ajudar?" });
  await expect(mine).toBeVisible();
  const onPhone = phone.locator('[data-testid="phone-message"][data-direction="outbound"]').filter({ hasText: "Como posso ajudar?" });
  await expect(onPhone).toBeVisible();
  await expect(onPhone.locator('[data-ack="read"]')).toBeVisible({ timeout: 15_000 });
  await expect(mine.locator('[data-ack="read"]')).toBeVisible({ timeout: 15_000 });
  await screenshot(phone, { path: "/tmp/sandbox-phone.png" });
  await screenshot(page, { path: "/tmp/tickets-wide.png" });

  // Transfer to another queue without a user: back to waiting, in that queue.
  await view.getByTestId("header-transfer").click();
  const transferDialog = page.getByRole("dialog", { name: "Transferir ticket" });
  await transferDialog.getByRole("combobox", { name: "Fila" }).click();
  await page.getByRole("option", { name: "Suporte" }).click();
  await page.getByTestId("transfer-submit").click();
  await expect(page).toHaveURL(/\/tickets$/);
  await page.getByTestId("tab-pending").click();
  const transferred = page.getByTestId("list-pending").getByTestId("ticket-item").filter({ hasText: "Maria Cliente" });
  await expect(transferred.getByTestId("tag-queue")).toHaveText("Suporte");
  await transferred.click();
  await expect(view).toHaveAttribute("data-status", "pending");

  // Closing without a tag is refused while the setting is on.
  await view.getByTestId("header-finish").click();
  await expect(page.getByText("Adicione uma tag antes de encerrar o ticket.")).toBeVisible();
  await expect(view).toHaveAttribute("data-status", "pending");

  // Tag it, then close.
  const synced = page.waitForResponse((r) => r.url().includes("/api/tags/sync") && r.ok());
  await view.getByTestId("tag-picker").click();
  await page.getByRole("option", { name: "VIP" }).click();
  await synced;
  await page.keyboard.press("Escape");
  await view.getByTestId("header-finish").click();
  await expect(page).toHaveURL(/\/tickets$/);

  // Reopen from Resolvidos.
  await page.getByTestId("tab-closed").click();
  const closed = page.getByTestId("list-closed").getByTestId("ticket-item").filter({ hasText: "Maria Cliente" });
  await expect(closed).toBeVisible();
  await expect(closed.getByTestId("tag-contact")).toHaveText("VIP");
  await closed.getByTestId("ticket-action-reopen").click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  await expect(view).toHaveAttribute("data-status", "open");
  await expect(page.getByTestId("message-input")).toBeVisible();

  // Narrow and dark views.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId("tickets-workspace")).toHaveAttribute("data-layout", "narrow");
  await expect(page.getByTestId("ticket-view")).toBeVisible();
  await screenshot(page, { path: "/tmp/tickets-narrow-ticket.png" });
  await page.getByTestId("mobile-tab-list").click();
  await page.getByTestId("tab-open").click();
  await expect(page.getByTestId("list-open").getByTestId("ticket-item")).toHaveCount(1);
  await screenshot(page, { path: "/tmp/tickets-narrow-list.png" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => localStorage.setItem("preferredTheme", "dark"));
  await page.reload();
  await expect(page.getByTestId("ticket-view")).toBeVisible();
  await expect(page.getByTestId("message").first()).toBeVisible();
  await screenshot(page, { path: "/tmp/tickets-dark.png" });

  expect(consoleErrors.errors).toEqual([]);
  expect(phoneErrors.errors).toEqual([]);
});

test("the new-ticket modal validates its fields and opens a proactive ticket", async ({ page, context }) => {
  const t = await createTenant();
  await login(page, t.admin.email);
  const consoleErrors = watchConsole(page);
  const whatsappId = await addSandboxConnection(page, "Sandbox Ativo");
  const phone = await openPhoneAndScan(context, whatsappId);
  await page.goto("/tickets");
  await page.getByTestId("tickets-workspace").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("Control+x");
  await page.getByTestId("new-ticket-submit").click();
  await expect(page.getByText("Digite um número de telefone válido")).toBeVisible();
  await expect(page.getByText("Digite uma mensagem para abrir o ticket")).toBeVisible();
  await page.getByTestId("new-ticket-number").fill("5511977776666");
  await page.getByTestId("new-ticket-message").fill("Bom dia! Seu pedido saiu para entrega.");
  await page.getByTestId("new-ticket-submit").click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  const view = page.getByTestId("ticket-view");
  await expect(view).toHaveAttribute("data-status", "open");
  await expect(view.getByTestId("message").filter({ hasText: "saiu para entrega" })).toBeVisible();
  const item = page.getByTestId("list-open").getByTestId("ticket-item").first();
  await expect(item.getByTestId("tag-origin")).toHaveText("ATIVO");

  // The customer's phone receives it.
  await phone.getByTestId("customer-number").fill("5511977776666");
  await expect(phone.locator('[data-testid="phone-message"][data-direction="outbound"]').filter({ hasText: "saiu para entrega" })).toBeVisible();
  expect(consoleErrors.errors).toEqual([]);
});
