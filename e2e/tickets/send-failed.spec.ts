import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { addSandboxConnection, inbound, openPhoneAndScan, watchConsole } from "../sandbox/helpers.js";
import { screenshot } from "../support/screenshots.js";

test("an outgoing message whose send failed shows the red error icon with the reason instead of the clock", async ({ page, context }) => {
  test.setTimeout(90_000);
  const t = await createTenant();
  await login(page, t.admin.email);
  const consoleErrors = watchConsole(page);
  const whatsappId = await addSandboxConnection(page, "Sandbox Falha");
  (await openPhoneAndScan(context, whatsappId)).close();
  await inbound(page, whatsappId, { number: "5511977771111", name: "Cliente Falha", body: "Oi" });
  const ticket = await db().one<{ id: number; contact_id: number }>("SELECT id, contact_id FROM tickets WHERE company_id = $1 AND whatsapp_id = $2", [
    t.companyId,
    whatsappId,
  ]);
  // One refused send (as the server records it), one still pending and one waiting for another attempt.
  await db().exec(
    `INSERT INTO messages (company_id, ticket_id, contact_id, whatsapp_id, body, from_me, media_type, ack, read, send_status, send_error)
     VALUES ($1, $2, $3, $4, 'Não chegou', true, 'chat', 0, true, 'failed', 'Message undeliverable (131026): Receiver incapable'),
            ($1, $2, $3, $4, 'A caminho', true, 'chat', 0, true, 'pending', NULL),
            ($1, $2, $3, $4, 'Tentando de novo', true, 'chat', 0, true, 'retrying', 'ERR_SENDING_WAPP_MSG: (#130429) Rate limit hit')`,
    [t.companyId, ticket.id, ticket.contact_id, whatsappId],
  );

  await page.goto("/tickets");
  await page.getByTestId("tab-pending").click();
  await page.getByTestId("list-pending").getByTestId("ticket-item").filter({ hasText: "Cliente Falha" }).click();
  const view = page.getByTestId("ticket-view");
  const failed = view.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: "Não chegou" });
  await expect(failed.locator('[data-ack="failed"]')).toBeVisible();
  await expect(failed.locator('[data-ack="pending"]')).toHaveCount(0);
  const pending = view.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: "A caminho" });
  await expect(pending.locator('[data-ack="pending"]')).toBeVisible();
  await failed.locator('[data-ack="failed"]').hover();
  await expect(page.getByRole("tooltip")).toHaveText("Falha no envio: Message undeliverable (131026): Receiver incapable");
  const retrying = view.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: "Tentando de novo" });
  await expect(retrying.locator('[data-ack="failed"]')).toHaveCount(0);
  await retrying.locator('[data-ack="retrying"]').hover();
  await expect(page.getByRole("tooltip", { name: "Nova tentativa em instantes" })).toBeVisible();
  await screenshot(page, { path: "/tmp/tickets-send-failed.png" });
  expect(consoleErrors.errors).toEqual([]);
});
