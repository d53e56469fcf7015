import { createTenant, db, expect, login, test } from "../support/fixtures.js";

/**
 * Accepting the open conversation from its header (or the bar under its messages): the list follows
 * the ticket to Abertas with it selected, instead of staying on an empty Aguardando ('Nada aqui!').
 */
for (const where of ["header-accept", "blocked-accept"] as const) {
  test(`after Aceitar (${where}) the list switches to Abertas with the ticket selected`, async ({ page }) => {
    const t = await createTenant();
    const contact = await db().one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Lia Espera', '5511944443333') RETURNING id", [t.companyId]);
    const ticket = await db().one<{ id: number; uuid: string }>(
      "INSERT INTO tickets (company_id, contact_id, status) VALUES ($1, $2, 'pending') RETURNING id, uuid",
      [t.companyId, contact.id],
    );
    await login(page, t.admin.email);
    await page.goto("/tickets");
    await page.getByTestId("tab-pending").click();
    await page.getByTestId("list-pending").getByTestId("ticket-item").filter({ hasText: "Lia Espera" }).click();
    const view = page.getByTestId("ticket-view");
    await expect(view).toHaveAttribute("data-status", "pending");

    await page.getByTestId(where).click();
    await expect(view).toHaveAttribute("data-status", "open");
    await expect(page.getByTestId("tab-open")).toHaveAttribute("aria-selected", "true");
    const item = page.getByTestId("list-open").locator(`[data-testid="ticket-item"][data-ticket-id="${ticket.id}"]`);
    await expect(item).toBeVisible();
    await expect(item).toHaveClass(/Mui-selected/);
    await expect(page.getByText("Nada aqui!")).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`/tickets/${ticket.uuid}$`));
  });
}
