import type { Page } from "@playwright/test";
import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { watchConsole } from "../sandbox/helpers.js";
import { screenshot, themeShots } from "../support/screenshots.js";

async function openEmailTab(page: Page) {
  await page.getByTestId("campaign-type").click();
  await page.getByRole("option", { name: "E-mail" }).click();
}

/** Replaces the CodeMirror document with `text` (typed, as a user would). */
async function typeHtml(page: Page, text: string) {
  const editor = page.locator(".cm-content");
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(text);
}

test("e-mail templates: lazy HTML editor with a sandboxed live preview, content required, create then update the same id, unsaved-changes confirmation, desktop/mobile preview", async ({ page }) => {
  test.setTimeout(120_000);
  // the template's own <script> below is blocked by the sandbox on purpose: Chromium reports that
  const consoleWatch = watchConsole(page, [/Blocked script execution in 'about:srcdoc'/]);
  const tenant = await createTenant();
  await login(page, tenant.admin.email);
  const editorChunks: string[] = [];
  page.on("request", (req) => {
    if (/html-code-editor|codemirror/i.test(req.url())) editorChunks.push(req.url());
  });
  await page.goto("/templates");
  await openEmailTab(page);
  await expect(page.getByText("Nenhum template de e-mail. Crie o primeiro em Adicionar.")).toBeVisible();
  // the editor's code is fetched only when the dialog opens
  expect(editorChunks).toEqual([]);

  await page.getByRole("button", { name: "Adicionar" }).click();
  const dialog = page.getByRole("dialog", { name: "Novo template de e-mail" });
  await expect(dialog.locator(".cm-content")).toBeVisible();
  expect(editorChunks.length).toBeGreaterThan(0);
  await expect(dialog.getByLabel("Tipo")).toBeDisabled();

  await dialog.getByLabel("Título").fill("Boas-vindas");
  await dialog.getByLabel("Assunto").fill("Bem-vindo à loja");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByTestId("content-required")).toHaveText("O conteúdo é obrigatório.");
  expect(await db().one<{ n: number }>("SELECT count(*)::int AS n FROM email_templates WHERE company_id = $1", [tenant.companyId])).toEqual({ n: 0 });

  await typeHtml(page, '<h1 id="t">Olá {{nome}}</h1><script>document.body.innerHTML = "hacked"</script>');
  const preview = dialog.frameLocator('[data-testid="email-preview"]');
  await expect(preview.locator("#t")).toHaveText("Olá {{nome}}");
  // sandbox="": the template's script never runs
  await expect(preview.locator("body")).not.toContainText("hacked");
  await expect(dialog.getByTestId("email-preview")).toHaveAttribute("sandbox", "");

  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Template salvo com sucesso.")).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Editar template de e-mail" })).toBeVisible();
  const first = await db().one<{ id: number }>("SELECT id FROM email_templates WHERE company_id = $1", [tenant.companyId]);

  // a later save updates the same template
  const editing = page.getByRole("dialog", { name: "Editar template de e-mail" });
  await editing.getByLabel("Título").fill("Boas-vindas v2");
  await editing.getByRole("button", { name: "Salvar" }).click();
  await expect(editing.getByLabel("Título")).toHaveValue("Boas-vindas v2");
  await expect
    .poll(async () => db().many<{ id: number; title: string }>("SELECT id, title FROM email_templates WHERE company_id = $1", [tenant.companyId]))
    .toEqual([{ id: first.id, title: "Boas-vindas v2" }]);

  // unsaved changes: closing asks; 'Cancelar' keeps the editor open, 'Descartar' closes it
  await typeHtml(page, "<p>Rascunho</p>");
  await expect(editing.frameLocator('[data-testid="email-preview"]').locator("p")).toHaveText("Rascunho");
  await editing.getByRole("button", { name: "Fechar" }).last().click();
  const confirm = page.getByRole("dialog", { name: "Descartar alterações?" });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Cancelar" }).click();
  await expect(editing).toBeVisible();
  await page.keyboard.press("Escape");
  await confirm.getByRole("button", { name: "Descartar" }).click();
  await expect(editing).toBeHidden();
  expect((await db().one<{ content: string }>("SELECT content FROM email_templates WHERE id = $1", [first.id])).content).toContain("Olá {{nome}}");

  // closing without changes asks nothing
  const rows = page.getByTestId("message-template-row");
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole("button", { name: "Editar" }).click();
  await expect(editing.getByLabel("Assunto")).toHaveValue("Bem-vindo à loja");
  await editing.getByRole("button", { name: "Fechar" }).last().click();
  await expect(editing).toBeHidden();

  // read-only preview with the desktop/mobile toggle
  await rows.first().getByRole("button", { name: "Visualizar" }).click();
  const view = page.getByRole("dialog");
  await expect(view.getByTestId("email-preview-subject")).toContainText("Bem-vindo à loja");
  const frame = view.getByTestId("email-preview");
  await expect(view.frameLocator('[data-testid="email-preview"]').locator("#t")).toHaveText("Olá {{nome}}");
  const desktopWidth = (await frame.boundingBox())!.width;
  expect(desktopWidth).toBeGreaterThan(600);
  await view.getByRole("button", { name: "Celular" }).click();
  await expect.poll(async () => Math.round((await frame.boundingBox())!.width)).toBe(375);
  await screenshot(page, { path: "/tmp/email-template-preview-mobile.png" });
  await view.getByRole("button", { name: "Computador" }).click();
  await expect.poll(async () => (await frame.boundingBox())!.width).toBe(desktopWidth);
  await view.getByRole("button", { name: "Fechar" }).click();

  await themeShots(page, "email-template-editor", async () => {
    await openEmailTab(page);
    await rows.first().getByRole("button", { name: "Editar" }).click();
    await expect(editing.locator(".cm-content")).toBeVisible();
  });
  expect(consoleWatch.errors).toEqual([]);
});
