import { createTenant, expect, login, test } from "../support/fixtures.js";
import { rowOf, seedConnection } from "../connections/helpers.js";

test("agents do not get the test phone: no link on the connections page, and its page sends them away", async ({ page }) => {
  const t = await createTenant();
  const id = await seedConnection(t.companyId, { name: "Sandbox Loja", status: "DISCONNECTED" });
  await login(page, t.user.email);
  await page.goto("/connections");
  await expect(rowOf(page, "Sandbox Loja")).toBeVisible();
  await expect(rowOf(page, "Sandbox Loja").getByTestId("open-phone")).toHaveCount(0);
  await page.goto(`/sandbox/${id}`);
  await expect(page).toHaveURL(/\/tickets$/);
  const token = await page.evaluate(() => localStorage.getItem("token"));
  const scan = await page.request.post(`/api/sandbox/${id}/scan`, { headers: { authorization: `Bearer ${token}` } });
  expect(scan.status()).toBe(403);
  expect((await scan.json()).error).toBe("ERR_NO_PERMISSION");
});
