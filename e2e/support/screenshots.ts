import type { Page, PageScreenshotOptions } from "@playwright/test";

/**
 * Screenshots are for a person to look at what a test drove (`E2E_SCREENSHOTS=1`, written under /tmp);
 * they assert nothing, so other runs (CI among them) skip them and the reloads that frame them.
 * A failing test still leaves its own screenshot (playwright.config.ts, "only-on-failure").
 */
export const screenshotsWanted = process.env.E2E_SCREENSHOTS === "1";

export async function screenshot(page: Page, options: PageScreenshotOptions & { path: string }): Promise<void> {
  if (screenshotsWanted) await page.screenshot(options);
}

/**
 * The page in the light and dark themes at desktop (1366) and phone (390) width, as
 * `/tmp/<name>-<width>-<theme>.png`; `ready` brings it back to what to show after each reload.
 * Leaves the page light, at desktop width, reloaded.
 */
export async function themeShots(
  page: Page,
  name: string,
  ready: () => Promise<unknown> = () => page.waitForLoadState("networkidle"),
  options: Omit<PageScreenshotOptions, "path"> = {},
): Promise<void> {
  if (!screenshotsWanted) return;
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => localStorage.setItem("preferredTheme", t), theme);
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: width > 500 ? 860 : 844 });
      await page.reload();
      await ready();
      await page.screenshot({ ...options, path: `/tmp/${name}-${width}-${theme}.png` });
    }
  }
  await page.evaluate(() => localStorage.setItem("preferredTheme", "light"));
  await page.setViewportSize({ width: 1366, height: 860 });
  await page.reload();
}
