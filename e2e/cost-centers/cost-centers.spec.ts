import type { Page } from "@playwright/test";
import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { themeShots } from "../support/screenshots.js";

const shoot = (page: Page, name: string) => themeShots(page, name, () => expect(page.getByTestId("cost-center-row").first()).toBeVisible());

test("cost centers: empty state, add with the form messages, edit, search and more rows on scroll", async ({ page }) => {
  test.setTimeout(120_000);
  const tenant = await createTenant();
  await login(page, tenant.supervisor.email);
  await page.goto("/cost-centers");
  await expect(page.getByRole("heading", { name: "Centros de custo" })).toBeVisible();
  await expect(page.getByTestId("empty-state")).toHaveText("Nenhum centro de custo cadastrado. Crie o primeiro para usá-lo nas campanhas.");

  await page.getByRole("button", { name: "Adicionar centro de custo" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("Obrigatório")).toBeVisible();
  await dialog.getByLabel("Nome").fill("x".repeat(65));
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("Muito longo!")).toBeVisible();
  await dialog.getByLabel("Nome").fill("Marketing");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Centro de custo salvo com sucesso!")).toBeVisible();
  const rows = page.getByTestId("cost-center-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Marketing");

  await rows.first().getByRole("button", { name: "Editar centro de custo" }).click();
  await expect(dialog.getByLabel("Nome")).toHaveValue("Marketing");
  await dialog.getByLabel("Nome").fill("Marketing digital");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog).toBeHidden();
  await expect(rows.first()).toContainText("Marketing digital");
  const stored = await db().one<{ name: string }>("SELECT name FROM cost_centers WHERE company_id = $1", [tenant.companyId]);
  expect(stored.name).toBe("Marketing digital");

  // 45 more: the first page holds 40, the rest come on scroll
  for (let i = 1; i <= 45; i++) await db().exec("INSERT INTO cost_centers (company_id, name) VALUES ($1, $2)", [tenant.companyId, `Filial ${String(i).padStart(2, "0")}`]);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Centros de custo" })).toContainText("(46)");
  await expect(rows).toHaveCount(40);
  await rows.last().scrollIntoViewIfNeeded();
  await expect(rows).toHaveCount(46);

  await page.getByRole("searchbox", { name: "Pesquisar por nome..." }).fill("filial 4");
  await expect(rows).toHaveCount(6);
  await expect(page.getByRole("heading", { name: "Centros de custo" })).toContainText("(6)");
  await page.getByRole("searchbox", { name: "Pesquisar por nome..." }).fill("nada disso");
  await expect(page.getByTestId("empty-state")).toHaveText("Nenhum centro de custo encontrado.");
  await page.getByRole("searchbox", { name: "Pesquisar por nome..." }).fill("");
  // the unfiltered list comes back as it was (both pages kept)
  await expect(rows).toHaveCount(46);

  await shoot(page, "cost-centers");
});
