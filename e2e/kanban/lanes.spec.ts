import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

test("an admin adds a kanban column and removes one, with confirmation", async ({ page }) => {
  const tenant = await createTenant();
  const c = tenant.companyId;
  const old = await db().one<{ id: number }>("INSERT INTO tags (company_id, name, color, kanban) VALUES ($1, 'Antiga', '#9E9E9E', 1) RETURNING id", [c]);
  await login(page, tenant.admin.email);
  await page.goto("/kanban");
  const lanes = page.getByTestId("kanban-lane");
  await expect(lanes).toHaveCount(2);

  // New column: the name needs 3 characters.
  await page.getByRole("button", { name: "Nova coluna" }).click();
  const dialog = page.getByRole("dialog", { name: "Nova coluna" });
  await dialog.getByLabel("Nome").fill("Ab");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("Mensagem muito curta")).toBeVisible();
  await dialog.getByLabel("Nome").fill("Proposta enviada");
  // The colour comes from the palette.
  await dialog.getByRole("button", { name: "Escolher cor" }).click();
  const picker = page.getByRole("listbox", { name: "Escolher cor" });
  await expect(picker).toBeVisible();
  await screenshot(page, { path: "/tmp/kanban-lane-color.png" });
  const swatch = picker.locator('[data-color][aria-selected="false"]').nth(3);
  const chosen = (await swatch.getAttribute("data-color"))!;
  await swatch.click();
  await expect(picker).toBeHidden();
  await expect(dialog.getByRole("textbox", { name: "Cor" })).toHaveValue(chosen);
  await screenshot(page, { path: "/tmp/kanban-lane-dialog.png" });
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Operação realizada com sucesso!").first()).toBeVisible();
  await expect(lanes).toHaveCount(3);
  await expect(lanes.nth(2)).toContainText("Proposta enviada");
  const created = await db().one<{ kanban: number; color: string }>("SELECT kanban, color FROM tags WHERE company_id = $1 AND name = 'Proposta enviada'", [c]);
  expect(created).toEqual({ kanban: 1, color: chosen });
  await screenshot(page, { path: "/tmp/kanban-lanes.png" });

  // Remove a column: cancelling keeps it, confirming turns the tag's kanban off (the tag stays).
  const oldLane = page.locator(`[data-testid="kanban-lane"][data-lane-id="${old.id}"]`);
  await expect(page.locator('[data-testid="kanban-lane"][data-lane-id="open"]').getByTestId("remove-lane")).toHaveCount(0);
  await oldLane.getByRole("button", { name: "Remover coluna" }).click();
  const confirm = page.getByRole("dialog", { name: 'Remover a coluna "Antiga"?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Cancelar" }).click();
  await expect(confirm).toBeHidden();
  await expect(oldLane).toBeVisible();
  await oldLane.getByRole("button", { name: "Remover coluna" }).click();
  await page.getByRole("dialog", { name: 'Remover a coluna "Antiga"?' }).getByRole("button", { name: "Remover" }).click();
  await expect(oldLane).toHaveCount(0);
  await expect(lanes).toHaveCount(2);
  expect(await db().one<{ kanban: number }>("SELECT kanban FROM tags WHERE id = $1", [old.id])).toEqual({ kanban: 0 });
});

test("agents see neither the new-column button nor the remove buttons", async ({ page }) => {
  const tenant = await createTenant();
  await db().exec("INSERT INTO tags (company_id, name, color, kanban) VALUES ($1, 'Negociação', '#1976D2', 1)", [tenant.companyId]);
  await login(page, tenant.user.email);
  await page.goto("/kanban");
  await expect(page.getByTestId("kanban-lane")).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Nova coluna" })).toHaveCount(0);
  await expect(page.getByTestId("remove-lane")).toHaveCount(0);
});
