import { createTenant, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

test("a supervisor lists blocked words: several at once, one edited, one deleted", async ({ page }) => {
  const tenant = await createTenant();
  await login(page, tenant.supervisor.email);
  await page.goto("/keywords");
  await expect(page.getByText("Nenhuma palavra bloqueada.")).toBeVisible();
  await page.getByRole("button", { name: "Adicionar" }).click();
  const add = page.getByRole("dialog", { name: "Adicionar palavras" });
  await add.getByRole("textbox", { name: "Palavras" }).fill("x");
  await add.getByRole("button", { name: "Salvar" }).click();
  await expect(add.getByText("A palavra deve ter pelo menos 2 caracteres.")).toBeVisible();
  await add.getByRole("textbox", { name: "Palavras" }).fill("golpe\npix grátis\n\nGOLPE\nsorteio");
  await add.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("3 palavras adicionadas com sucesso!")).toBeVisible();
  await expect(page.getByTestId("keyword-row")).toHaveText([/golpe/, /pix grátis/, /sorteio/]);

  await page.getByTestId("keyword-row").filter({ hasText: "sorteio" }).getByRole("button", { name: "Editar palavra" }).click();
  const edit = page.getByRole("dialog", { name: "Editar palavra" });
  await expect(edit.locator("textarea")).toHaveCount(0);
  await edit.getByRole("textbox", { name: "Palavra" }).fill("sorteio grátis");
  await edit.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Palavra editada com sucesso!")).toBeVisible();
  await expect(page.getByTestId("keyword-row").filter({ hasText: "sorteio grátis" })).toBeVisible();

  await page.getByTestId("keyword-row").filter({ hasText: "golpe" }).getByRole("button", { name: "Excluir palavra" }).click();
  await page.getByRole("dialog").getByRole("button", { name: /confirmar|excluir|sim/i }).click();
  await expect(page.getByTestId("keyword-row")).toHaveCount(2);
  await screenshot(page, { path: "/tmp/keywords.png" });
});
