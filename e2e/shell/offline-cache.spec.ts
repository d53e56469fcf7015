import type { Page } from "@playwright/test";
import { createTenant, expect, login, test } from "../support/fixtures.js";

/** The names of the page's IndexedDB databases. */
const databases = (page: Page) => page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? ""));

test("logout deletes the user's offline tickets cache", async ({ page }) => {
  const t = await createTenant();
  await login(page, t.user.email);
  const name = `atende-offline-${t.companyId}-${t.user.id}`;
  await expect.poll(() => databases(page)).toContain(name);
  await page.getByRole("button", { name: "Minha conta" }).click();
  await page.getByRole("menuitem", { name: "Sair" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect.poll(() => databases(page)).not.toContain(name);
});

test("being logged in elsewhere deletes the offline tickets cache too", async ({ page, browser }) => {
  const t = await createTenant();
  const connected = new Promise<void>((resolve) => {
    page.on("websocket", (ws) => ws.on("framereceived", (f) => String(f.payload).startsWith("40") && resolve()));
  });
  await login(page, t.user.email);
  await connected;
  const name = `atende-offline-${t.companyId}-${t.user.id}`;
  await expect.poll(() => databases(page)).toContain(name);
  const other = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  try {
    await login(await other.newPage(), t.user.email);
    await expect(page.getByText("Sua conta foi acessada em outro computador.")).toBeVisible();
    await expect.poll(() => databases(page)).not.toContain(name);
    await page.waitForURL("**/login");
    expect(await databases(page)).not.toContain(name);
  } finally {
    await other.close();
  }
});
