import { db, expect, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

test("the page has its title, favicon and theme colour", async ({ page }) => {
  await page.goto("/login");
  await expect(page).toHaveTitle("Atende");
  const href = await page.locator('link[rel="icon"]').getAttribute("href");
  expect(href).toBe("/favicon.svg");
  const icon = await page.request.get(href!);
  expect(icon.ok()).toBe(true);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
  expect(await icon.text()).toContain("<svg");
  await page.setViewportSize({ width: 128, height: 128 });
  await page.goto("/favicon.svg");
  await screenshot(page, { path: "/tmp/favicon.png" });
  await page.goto("/login");
  await expect(page.locator('meta[name="theme-color"]').first()).toHaveAttribute("content", /^#[0-9a-fA-F]{6}$/);
});

test("sign-up shows plan limits of 0 as unlimited", async ({ page }) => {
  const name = `Plano Livre ${Date.now()}`;
  await db().exec("INSERT INTO plans (name, users, connections, queues, value) VALUES ($1, 0, 2, 0, 99.9)", [name]);
  await page.goto("/signup");
  await page.getByTestId("plan-select").click();
  await expect(page.getByRole("option", { name })).toHaveText(`${name} - Atendentes: Ilimitado - WhatsApp: 2 - Filas: Ilimitado - R$\u00a099,90`);
  await page.keyboard.press("Escape");
});
