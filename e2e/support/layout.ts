import { expect, type Page } from "@playwright/test";

/**
 * Nothing on the page is wider than `width` (no sideways scrolling on a screen that size). Polled: after
 * a viewport change, charts and grids re-measure on their ResizeObserver a moment later, so the width
 * read at once can still be the previous layout's.
 */
export async function expectNoSidewaysScroll(page: Page, width: number): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: `page wider than ${width}px` }).toBeLessThanOrEqual(width);
}
