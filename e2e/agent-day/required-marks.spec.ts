import type { Locator } from "@playwright/test";
import { createTenant, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

/** Labels of the fields that show an error but carry no required mark (the asterisk). */
function unmarkedErrors(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) =>
    [...root.querySelectorAll<HTMLElement>("label.Mui-error")].filter((label) => !label.querySelector(".MuiFormLabel-asterisk")).map((label) => label.textContent ?? ""),
  );
}

const DIALOGS: { path: string; open: string }[] = [
  { path: "/contacts", open: "Adicionar contato" },
  { path: "/queues", open: "Adicionar fila" },
  { path: "/quick-messages", open: "Adicionar resposta" },
  { path: "/schedules", open: "Novo agendamento" },
  { path: "/tags", open: "Adicionar tag" },
  { path: "/users", open: "Adicionar usuário" },
  { path: "/connections", open: "Adicionar WhatsApp" },
];

test("every add dialog marks the fields it refuses empty as required", async ({ page }) => {
  test.setTimeout(120_000);
  const t = await createTenant();
  await login(page, t.admin.email);
  for (const { path, open } of DIALOGS) {
    await page.goto(path);
    await page.getByRole("button", { name: open }).first().click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    await dialog.locator(".MuiDialogActions-root button").last().click();
    // the empty dialog is refused: at least one field says why, and each of them is marked
    await expect(dialog.locator("label.Mui-error").first(), path).toBeVisible();
    expect(await unmarkedErrors(dialog), path).toEqual([]);
    await screenshot(page, { path: `/tmp/required-${path.slice(1)}.png` });
  }
});
