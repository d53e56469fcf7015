import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

test("two agents chat in real time: the dialog's rules, unread badges, the app bar popover, owner-only edit", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const tenant = await createTenant();
  await login(page, tenant.admin.email);
  await page.goto("/chats");
  await page.getByRole("button", { name: "Nova" }).click();
  const dialog = page.getByRole("dialog", { name: "Nova conversa" });
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("Por favor, preencha o título da conversa.")).toBeVisible();
  await expect(dialog.getByText("Por favor, selecione pelo menos um usuário.")).toBeVisible();
  await dialog.getByLabel("Título").fill("Plantão de sábado");
  await dialog.getByLabel("Participantes").click();
  await page.getByRole("option", { name: "Ulisses Agente" }).click();
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/chats\/[0-9a-f-]{36}$/);

  // the agent, in another browser
  const other = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, locale: "pt-BR" });
  const agent = await other.newPage();
  await login(agent, tenant.user.email);
  const badge = agent.getByTestId("chats-unread").locator(".MuiBadge-badge");

  await page.getByLabel("Digite uma mensagem").fill("Alguém cobre o turno das 14h?");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("chat-message").filter({ hasText: "Alguém cobre" })).toHaveAttribute("data-mine", "true");
  await expect(badge).toHaveText("1");

  await agent.getByRole("button", { name: "Abrir chat interno" }).click();
  await agent.getByTestId("chat-bar-item").filter({ hasText: "Plantão de sábado" }).click();
  await expect(agent).toHaveURL(/\/chats\//);
  await expect(agent.getByTestId("chat-message").filter({ hasText: "Alguém cobre" })).toContainText("Ana Admin");
  await expect(badge).toBeHidden();
  // only the owner edits or deletes
  await expect(agent.getByRole("button", { name: "Editar conversa" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Editar conversa" })).toBeVisible();

  await agent.getByLabel("Digite uma mensagem").fill("Eu cubro!");
  await agent.getByRole("button", { name: "Enviar" }).click();
  await expect(page.getByTestId("chat-message").filter({ hasText: "Eu cubro!" })).toHaveAttribute("data-mine", "false");
  await screenshot(page, { path: "/tmp/chats-1366.png" });
  await other.close();
});

test("older messages load as the pane is scrolled up, and a phone-width screen shows the two tabs", async ({ page }) => {
  const tenant = await createTenant();
  const sql = db();
  const { id, uuid } = await sql.one<{ id: number; uuid: string }>("INSERT INTO chats (company_id, owner_id, title) VALUES ($1, $2, 'Histórico') RETURNING id, uuid::text", [
    tenant.companyId,
    tenant.admin.id,
  ]);
  await sql.exec("INSERT INTO chat_users (company_id, chat_id, user_id) VALUES ($1, $2, $3), ($1, $2, $4)", [tenant.companyId, id, tenant.admin.id, tenant.user.id]);
  await sql.exec(
    "INSERT INTO chat_messages (company_id, chat_id, sender_id, message, created_at) SELECT $1, $2, $3, 'Mensagem ' || n, now() - (50 - n) * interval '1 minute' FROM generate_series(1, 45) n",
    [tenant.companyId, id, tenant.user.id],
  );
  await page.setViewportSize({ width: 390, height: 844 });
  await login(page, tenant.admin.email);
  await page.goto(`/chats/${uuid}`);
  await expect(page.getByRole("tab", { name: "Mensagens" })).toHaveAttribute("aria-selected", "true");
  const messages = page.getByTestId("chat-message");
  await expect(messages.last()).toContainText("Mensagem 45");
  await expect(messages.last()).toBeInViewport();
  // the first page did not fill the pane far enough: older ones come, and scrolling up brings the rest
  for (let i = 0; i < 10 && !(await messages.first().textContent())?.includes("Mensagem 1\n") && (await messages.count()) < 45; i++) {
    await page.getByTestId("chat-messages").evaluate((el) => (el.scrollTop = 0));
    await page.waitForTimeout(300);
  }
  await expect(messages).toHaveCount(45);
  await expect(messages.first()).toContainText("Mensagem 1");
  await screenshot(page, { path: "/tmp/chats-390-messages.png" });
  await page.getByRole("tab", { name: "Chats" }).click();
  await expect(page.getByTestId("chat-item").filter({ hasText: "Histórico" })).toBeVisible();
  await screenshot(page, { path: "/tmp/chats-390-list.png" });
});
