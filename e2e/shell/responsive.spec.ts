import type { Page } from "@playwright/test";
import { createTenant, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

/** Whether anything sticks out of the app bar's visible area (an overflowing toolbar). */
const barOverflows = (page: Page) =>
  page.evaluate(() => {
    const bar = document.querySelector("header .MuiToolbar-root");
    if (!bar) return true;
    const right = bar.getBoundingClientRect().right;
    return Array.from(bar.querySelectorAll("button")).some((b) => b.getBoundingClientRect().right > right + 0.5);
  });

test("shrinking a wide window leaves nothing covering the page", async ({ page }) => {
  const t = await createTenant();
  await login(page, t.admin.email);
  await expect(page.getByTestId("app-drawer")).toHaveAttribute("data-open", "true");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("tickets-workspace")).toHaveAttribute("data-layout", "narrow");
  // Without a reload: the list tab and a status tab must take the clicks.
  await page.getByTestId("mobile-tab-list").click({ timeout: 5000 });
  await page.getByTestId("tab-closed").click({ timeout: 5000 });
  await expect(page.getByTestId("tab-closed")).toHaveAttribute("aria-selected", "true");
  // The narrow drawer still opens and closes on demand.
  await page.getByRole("button", { name: "Abrir ou fechar o menu" }).click();
  const contacts = page.getByRole("link", { name: "Contatos" });
  await expect(contacts).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(contacts).not.toBeVisible();
  await page.getByTestId("tab-open").click({ timeout: 5000 });
  await expect(page.getByTestId("tab-open")).toHaveAttribute("aria-selected", "true");
  // Back to wide: the permanent drawer is back, open.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByTestId("app-drawer")).toHaveAttribute("data-open", "true");
  await page.getByRole("navigation").first().getByRole("link", { name: "Contatos" }).click();
  await expect(page).toHaveURL(/\/contacts$/);
});

for (const mode of ["light", "dark"] as const) {
  test(`the app bar fits at 390 px and at 1280 px (${mode})`, async ({ page }) => {
    const t = await createTenant({ dueDate: "2099-12-31" });
    await page.addInitScript((m) => localStorage.setItem("preferredTheme", m), mode);
    await login(page, t.admin.email);
    await expect(page.getByTestId("greeting")).toBeVisible();
    await expect(page.getByTestId("notifications-button")).toBeVisible();
    expect(await barOverflows(page)).toBe(false);
    await screenshot(page, { path: `/tmp/shell-bar-1280-${mode}.png` });

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId("greeting")).toBeHidden();
    const account = page.getByRole("button", { name: "Minha conta" });
    await expect(account).toBeInViewport({ ratio: 1 });
    await expect(page.getByTestId("notifications-button")).toBeInViewport({ ratio: 1 });
    expect(await barOverflows(page)).toBe(false);
    await screenshot(page, { path: `/tmp/shell-bar-390-${mode}.png` });

    // Theme, language and volume live in the account menu on a narrow screen.
    await account.click();
    const menu = page.getByRole("menu");
    await expect(menu.getByRole("menuitem", { name: mode === "dark" ? "Tema claro" : "Tema escuro" })).toBeVisible();
    await expect(menu.getByRole("slider", { name: "Volume" })).toBeVisible();
    await expect(page.locator(".MuiMenu-paper")).toHaveCSS("opacity", "1");
    await screenshot(page, { path: `/tmp/shell-bar-390-menu-${mode}.png` });
    await menu.getByRole("menuitem", { name: "English" }).click();
    await expect(page.getByRole("button", { name: "My account" })).toBeVisible();
    await page.getByRole("button", { name: "My account" }).click();
    await page.getByRole("menu").getByRole("menuitem", { name: mode === "dark" ? "Light theme" : "Dark theme" }).click();
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe(mode === "dark" ? "rgb(244, 246, 251)" : "rgb(15, 23, 42)");
  });
}
