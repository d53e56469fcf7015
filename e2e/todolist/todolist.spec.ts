import { createTenant, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

test("tasks are added (blank ignored), edited and deleted, and kept in local storage", async ({ page }) => {
  const tenant = await createTenant();
  await login(page, tenant.user.email);
  await page.goto("/todolist");
  const input = page.getByLabel("Nova tarefa");
  const items = page.getByTestId("task-item");
  await expect(page.getByText("Nenhuma tarefa. Adicione a primeira acima.")).toBeVisible();

  await input.fill("   ");
  await page.getByRole("button", { name: "Adicionar" }).click();
  await expect(items).toHaveCount(0);

  await input.fill("Ligar para o fornecedor");
  await input.press("Enter");
  await input.fill("Revisar respostas rápidas");
  await page.getByRole("button", { name: "Adicionar" }).click();
  await expect(items).toHaveCount(2);

  await items.nth(0).getByRole("button", { name: "Editar tarefa" }).click();
  await expect(input).toHaveValue("Ligar para o fornecedor");
  await input.fill("Ligar para o fornecedor às 15h");
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(items.nth(0)).toContainText("Ligar para o fornecedor às 15h");
  await expect(items.nth(0)).toContainText("Atualizada em");
  await screenshot(page, { path: "/tmp/todolist.png" });

  await page.reload();
  await expect(items).toHaveCount(2);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("tasks") ?? "[]") as { text: string; createdAt: string; updatedAt: string }[]);
  expect(stored.map((t) => t.text)).toEqual(["Ligar para o fornecedor às 15h", "Revisar respostas rápidas"]);
  expect(stored[0]!.createdAt).toBeTruthy();

  await items.nth(1).getByRole("button", { name: "Excluir tarefa" }).click();
  await expect(items).toHaveCount(1);
  await page.reload();
  await expect(items).toHaveCount(1);
});
