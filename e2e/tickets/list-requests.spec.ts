import { buildQueue, createTenant, db, expect, login, test } from "../support/fixtures.js";

/** Opening the workspace asks for each tab's list once, with the queue filter, not again when the queues arrive. */
test("opening /tickets asks once for each list the tabs show", async ({ page }) => {
  const t = await createTenant();
  await buildQueue(db(), t.companyId, { name: "Vendas" });
  await buildQueue(db(), t.companyId, { name: "Suporte" });
  await login(page, t.admin.email);
  await expect(page.getByTestId("tab-pending")).toBeVisible();
  // The first load's lists wait for the queue filter and may still be on their way; the old page keeps
  // running until the reload commits (a few hundred ms on a loaded machine) and would be counted too.
  await page.waitForLoadState("networkidle");
  let reloaded = false;
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) reloaded = true;
  });
  const lists: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    // the workspace's lists carry the queue filter (the notifications' own lists do not)
    if (reloaded && url.pathname === "/api/tickets" && url.searchParams.has("queueIds")) lists.push(url.searchParams.get("status") ?? "search");
  });
  await page.reload(); // a fresh load of the workspace
  await expect(page.getByTestId("tab-pending")).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(lists.sort()).toEqual(["open", "paused", "pending"]);
});
