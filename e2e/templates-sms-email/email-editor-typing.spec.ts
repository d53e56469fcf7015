import { createTenant, db, expect, login, test } from "../support/fixtures.js";

/**
 * The e-mail template's HTML editor typed by hand, key by key: the document is exactly what was
 * typed (the editor adds no closing tag of its own, which typing the closing tag then doubled:
 * `</a></p>p></a></p></h1>`), and the preview shows no stray text.
 */
test("typing HTML by hand in the e-mail template editor keeps it exactly; the preview has no stray text", async ({ page }) => {
  const tenant = await createTenant();
  await login(page, tenant.admin.email);
  await page.goto("/templates");
  await page.getByTestId("campaign-type").click();
  await page.getByRole("option", { name: "E-mail" }).click();
  await page.getByRole("button", { name: "Adicionar" }).click();
  const dialog = page.getByRole("dialog", { name: "Novo template de e-mail" });
  const editor = dialog.locator(".cm-content");
  await expect(editor).toBeVisible();
  await dialog.getByLabel("Título").fill("Digitado");
  await dialog.getByLabel("Assunto").fill("Olá");

  const typed = '<h1><p><a href="x">y</a></p></h1>';
  await editor.click();
  await page.keyboard.type(typed);
  await expect(editor).toHaveText(typed);
  const preview = dialog.frameLocator('[data-testid="email-preview"]');
  await expect(preview.locator("a")).toHaveText("y");
  await expect(preview.locator("body")).toHaveText("y");

  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Template salvo com sucesso.")).toBeVisible();
  const saved = await db().one<{ content: string }>("SELECT content FROM email_templates WHERE company_id = $1", [tenant.companyId]);
  expect(saved.content).toBe(typed);
});
