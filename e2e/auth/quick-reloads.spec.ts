import { createTenant, expect, login, test } from "../support/fixtures.js";

/** A page left while its session refresh was on the way must not cost the user their session. */
test("two page loads in quick succession keep the user signed in", async ({ page }) => {
  const t = await createTenant();
  await login(page, t.admin.email);
  await page.goto("/queues");
  await page.goto("/tickets");
  await expect(page.getByTestId("tab-pending")).toBeVisible();
  await page.goto("/contacts");
  await page.reload();
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(page.locator('input[name="password"]')).toHaveCount(0);
});
