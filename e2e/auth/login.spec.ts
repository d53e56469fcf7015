import { E2E_ADMIN, expect, login, test } from "../support/fixtures.js";

test("the super administrator logs in and lands on /tickets", async ({ page }) => {
  await login(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/tickets/);
});
