import { createTenant, expect, login, test } from "../support/fixtures.js";
import { addSandboxConnection, inbound, openPhoneAndScan, watchConsole } from "../sandbox/helpers.js";

test("the ticket list pages on scroll and a conversation loads older messages at the top", async ({ page, context }) => {
  test.setTimeout(120_000);
  const t = await createTenant();
  await login(page, t.admin.email);
  const consoleErrors = watchConsole(page);
  const whatsappId = await addSandboxConnection(page, "Sandbox Volume");
  (await openPhoneAndScan(context, whatsappId)).close();

  for (let i = 1; i <= 45; i++) await inbound(page, whatsappId, { number: `55119000${String(i).padStart(5, "0")}`, name: `Cliente ${String(i).padStart(2, "0")}`, body: `Mensagem do cliente ${i}` });
  for (let i = 1; i <= 35; i++) await inbound(page, whatsappId, { number: "5511900000001", name: "Cliente 01", body: `Conversa longa ${i}` });

  await page.goto("/tickets");
  await page.getByTestId("tab-pending").click();
  await expect(page.getByTestId("badge-pending")).toHaveText("45");
  const list = page.getByTestId("list-pending");
  // Virtualized: only the visible rows exist; scrolling to the end brings the second page.
  await expect(list.getByTestId("ticket-item").first()).toBeVisible();
  expect(await list.getByTestId("ticket-item").count()).toBeLessThan(40);
  for (let i = 0; i < 10; i++) {
    await list.getByTestId("ticket-item").last().scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 4000);
    if (await list.getByTestId("ticket-item").filter({ hasText: "Cliente 02" }).count()) break;
  }
  await expect(list.getByTestId("ticket-item").filter({ hasText: "Cliente 02" })).toBeVisible();

  // The offline cache holds every ticket, at most 30 messages per ticket.
  const cache = () =>
    page.evaluate(
      ({ companyId, userId }) =>
        new Promise<{ tickets: number; maxMessages: number }>((resolve, reject) => {
          const req = indexedDB.open(`atende-offline-${companyId}-${userId}`);
          req.onerror = () => reject(req.error);
          req.onsuccess = () => {
            const tx = req.result.transaction(["tickets", "messages"]);
            const tickets = tx.objectStore("tickets").count();
            const messages = tx.objectStore("messages").getAll();
            tx.oncomplete = () => {
              const per = new Map<number, number>();
              for (const m of messages.result as { ticketId: number }[]) per.set(m.ticketId, (per.get(m.ticketId) ?? 0) + 1);
              resolve({ tickets: tickets.result, maxMessages: Math.max(0, ...per.values()) });
              req.result.close();
            };
          };
        }),
      { companyId: t.companyId, userId: t.admin.id },
    );
  await expect.poll(async () => (await cache()).tickets, { timeout: 20_000 }).toBe(45);
  expect((await cache()).maxMessages).toBe(30);

  // Cliente 01 has 36 messages: 20 first, the rest when scrolled to the top.
  await page.getByTestId("tab-search").click();
  await page.getByTestId("search-input").fill("Cliente 01");
  await page.getByTestId("list-search").getByTestId("ticket-item").filter({ hasText: "Cliente 01" }).click();
  const messages = page.getByTestId("messages-list");
  await expect(messages.getByTestId("message").filter({ hasText: "Conversa longa 35" })).toBeVisible();
  await expect(messages.getByTestId("message")).toHaveCount(20);
  await messages.evaluate((el) => el.scrollTo(0, 0));
  await expect(messages.getByTestId("message")).toHaveCount(36);
  await expect(messages.getByTestId("message").filter({ hasText: "Mensagem do cliente 1" }).first()).toBeVisible();
  expect(consoleErrors.errors).toEqual([]);
});
