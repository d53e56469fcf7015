import { createTenant, db, expect, login, test, TEST_PASSWORD } from "../support/fixtures.js";

async function addConnection(companyId: number, status: string): Promise<number> {
  const row = await db().one<{ id: number }>("INSERT INTO whatsapps (company_id, name, status) VALUES ($1, $2, $3) RETURNING id", [
    companyId,
    `Conexão ${status}`,
    status,
  ]);
  return row.id;
}

test("the connections item shows an alert badge when a connection needs attention", async ({ page }) => {
  const t = await createTenant();
  await addConnection(t.companyId, "CONNECTED");
  await addConnection(t.companyId, "DISCONNECTED");
  await login(page, t.user.email);
  await expect(page.getByTestId("connections-alert")).toBeVisible();
});

test("no badge while every connection is connected; a live session change raises it", async ({ page, request }) => {
  const t = await createTenant();
  const id = await addConnection(t.companyId, "CONNECTED");
  await login(page, t.user.email);
  await expect(page.locator('[data-menu-key="connections"]')).toBeVisible();
  // The alert is evaluated 2 s after the list changes.
  await page.waitForTimeout(2500);
  await expect(page.getByTestId("connections-alert")).toHaveCount(0);

  // Another session (the admin) stops the connection: the session update arrives over the socket.
  const res = await request.post(`${process.env.E2E_BASE_URL}/api/auth/login`, { data: { email: t.admin.email, password: TEST_PASSWORD } });
  const { token } = (await res.json()) as { token: string };
  const stop = await request.delete(`${process.env.E2E_BASE_URL}/api/whatsappsession/${id}`, { headers: { authorization: `Bearer ${token}` } });
  expect(stop.ok()).toBeTruthy();
  await expect(page.getByTestId("connections-alert")).toBeVisible();
});
