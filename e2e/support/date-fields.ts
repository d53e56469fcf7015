import type { Locator, Page } from "@playwright/test";

/**
 * The app's date and date-time fields (MUI X pickers): one spin button per part (day, month, year, hour,
 * minute) and a hidden input holding the text shown, in the interface language's format.
 */
export function dateFieldInput(scope: Page | Locator, name: string): Locator {
  return scope.locator(`input[name="${name}"]`);
}

/** Types `text` (digits in the field's order, e.g. "25112026" or "251120261030") from the first part. */
export async function typeDate(page: Page, scope: Page | Locator, label: string, digits: string): Promise<void> {
  const group = scope.getByRole("group", { name: label });
  await group.getByRole("spinbutton").first().click();
  await page.keyboard.type(digits);
}
