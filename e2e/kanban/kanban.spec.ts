import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

test("a ticket card is dragged from 'Em aberto' to a kanban tag lane and opens its conversation", async ({ page }) => {
  const tenant = await createTenant();
  const c = tenant.companyId;
  const lane = await db().one<{ id: number }>("INSERT INTO tags (company_id, name, color, kanban) VALUES ($1, 'Negociação', '#1976D2', 1) RETURNING id", [c]);
  await db().exec("INSERT INTO tags (company_id, name, color, kanban) VALUES ($1, 'Fechado', '#388E3C', 1), ($1, 'Não kanban', '#9E9E9E', 0)", [c]);
  const contact = await db().one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Lucas Kanban', '5511922223333') RETURNING id", [c]);
  const ticket = await db().one<{ id: number; uuid: string }>(
    "INSERT INTO tickets (company_id, contact_id, status, user_id, last_message, last_message_at) VALUES ($1, $2, 'open', $3, 'Quero um orçamento', now()) RETURNING id, uuid",
    [c, contact.id, tenant.admin.id],
  );

  await login(page, tenant.admin.email);
  await page.goto("/kanban");
  const lanes = page.getByTestId("kanban-lane");
  await expect(lanes).toHaveCount(3);
  await expect(lanes.nth(0)).toContainText("Em aberto");
  await expect(lanes.filter({ hasText: "Negociação" })).toHaveCount(1);
  await expect(lanes.filter({ hasText: "Fechado" })).toHaveCount(1);
  const open = page.locator('[data-testid="kanban-lane"][data-lane-id="open"]');
  const target = page.locator(`[data-testid="kanban-lane"][data-lane-id="${lane.id}"]`);
  const card = page.locator(`[data-testid="kanban-card"][data-ticket-id="${ticket.id}"]`);
  await expect(open.locator(card)).toBeVisible();
  await expect(card).toContainText("Lucas Kanban");
  await expect(card).toContainText("Quero um orçamento");
  await screenshot(page, { path: "/tmp/kanban-before.png" });

  await card.dragTo(target);
  // One toast: the card leaves 'Em aberto', no tag of it was removed.
  await expect(page.getByText("Tag adicionada ao ticket com sucesso!")).toBeVisible();
  await expect(page.locator(".Toastify__toast")).toHaveCount(1);
  await expect(page.getByText("Tag removida do ticket!")).toHaveCount(0);
  await expect(target.locator(card)).toBeVisible();
  await expect(open.locator(card)).toHaveCount(0);
  const tags = await db().many<{ tag_id: number }>("SELECT tag_id FROM ticket_tags WHERE company_id = $1 AND ticket_id = $2", [c, ticket.id]);
  expect(tags.map((t) => t.tag_id)).toEqual([lane.id]);
  await screenshot(page, { path: "/tmp/kanban-after.png" });

  await page.reload();
  await expect(target.locator(card)).toBeVisible();
  await card.click();
  await page.waitForURL(`**/tickets/${ticket.uuid}`);
});
