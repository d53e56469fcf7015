import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

test("an administrator creates, searches, scrolls, edits and deletes tags", async ({ page }) => {
  const tenant = await createTenant();
  const c = tenant.companyId;
  // 45 tags to scroll through, and a ticket to count.
  await db().exec("INSERT INTO tags (company_id, name, color) SELECT $1, 'Etiqueta ' || lpad(g::text, 2, '0'), '#9E9E9E' FROM generate_series(1, 45) g", [c]);
  const contact = await db().one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Cliente', '5511977778888') RETURNING id", [c]);
  const ticket = await db().one<{ id: number }>("INSERT INTO tickets (company_id, contact_id, status) VALUES ($1, $2, 'open') RETURNING id", [c, contact.id]);

  await login(page, tenant.admin.email);
  await page.goto("/tags");
  await expect(page.getByRole("heading", { name: "Tags" })).toBeVisible();

  await page.getByRole("button", { name: "Adicionar tag" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("Obrigatório")).toBeVisible();
  await dialog.getByLabel("Nome").fill("VI");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("Mensagem muito curta")).toBeVisible();
  // The name input is capped at 255 characters.
  await expect(dialog.getByLabel("Nome")).toHaveAttribute("maxlength", "255");
  // Kanban is shown to administrators but never editable here.
  await expect(dialog.getByRole("checkbox", { name: "Kanban" })).toBeDisabled();
  await dialog.getByLabel("Nome").fill("VIP");
  await dialog.getByRole("button", { name: "Escolha uma cor" }).click();
  await page.getByRole("option", { name: "#D32F2F" }).click();
  await screenshot(page, { path: "/tmp/tags-dialog.png" });
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Tag salva com sucesso!")).toBeVisible();
  await expect(dialog).toBeHidden();

  const tag = await db().one<{ id: number }>("SELECT id FROM tags WHERE company_id = $1 AND name = 'VIP'", [c]);
  await db().exec("INSERT INTO ticket_tags (company_id, ticket_id, tag_id) VALUES ($1, $2, $3)", [c, ticket.id, tag.id]);

  // Search (debounced) then the tickets count.
  await page.getByRole("searchbox", { name: "Pesquisar..." }).fill("vip");
  const rows = page.getByTestId("tag-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByTestId("tag-tickets")).toHaveText("1");
  await page.getByRole("searchbox", { name: "Pesquisar..." }).fill("");

  // Infinite scroll: the first page is shorter than the 46 tags; scrolling loads the rest.
  await expect.poll(() => rows.count()).toBeGreaterThan(0);
  const firstPage = await rows.count();
  expect(firstPage).toBeLessThan(46);
  const scroller = page.locator("main .MuiPaper-root").filter({ has: page.getByRole("table") }).first();
  await expect(async () => {
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    expect(await rows.count()).toBe(46);
  }).toPass({ timeout: 15_000 });
  await screenshot(page, { path: "/tmp/tags-list.png" });

  // Edit and delete, both surviving a reload.
  await page.getByRole("searchbox", { name: "Pesquisar..." }).fill("vip");
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole("button", { name: "Editar tag" }).click();
  await expect(dialog.getByLabel("Nome")).toHaveValue("VIP");
  await dialog.getByLabel("Nome").fill("VIP Ouro");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await page.getByRole("searchbox", { name: "Pesquisar..." }).fill("ouro");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("VIP Ouro");
  await rows.first().getByRole("button", { name: "Excluir tag" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByText("Tag excluída com sucesso!")).toBeVisible();
  await expect(rows).toHaveCount(0);
  await page.reload();
  await page.getByRole("searchbox", { name: "Pesquisar..." }).fill("ouro");
  await expect(page.getByText("Nenhuma tag encontrada.")).toBeVisible();
});
