import { buildUser, createTenant, db, expect, login, test, TEST_PASSWORD } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

test("the super administrator opens a company's users from the Companies tab and edits its admin", async ({ page }) => {
  const t = await createTenant();
  const company = await db().one<{ name: string }>("UPDATE companies SET email = $2 WHERE id = $1 RETURNING name", [t.companyId, t.admin.email]);
  const own = await createTenant();
  const sup = await buildUser(db(), own.companyId, { profile: "admin", super: true });
  await login(page, sup.email);
  await page.goto("/settings");
  await page.getByRole("tab", { name: "Empresas" }).click();
  const form = page.getByRole("form", { name: "Empresas" });
  // Only once a company is chosen.
  await expect(form.getByRole("button", { name: "Usuários" })).toHaveCount(0);
  await page.getByTestId("company-row").filter({ hasText: company.name }).click();
  await form.getByRole("button", { name: "Usuários" }).click();

  const dialog = page.getByRole("dialog", { name: `Usuários de ${company.name}` });
  const rows = dialog.getByTestId("company-user");
  await expect(rows).toHaveCount(3);
  // The user with the company's e-mail comes first and is marked.
  await expect(rows.first()).toContainText("Ana Admin");
  await expect(rows.first()).toContainText("E-mail da empresa");
  await expect(rows.first()).toContainText(`${t.admin.email} · Administrador`);
  await expect(rows.filter({ hasText: "E-mail da empresa" })).toHaveCount(1);
  await screenshot(page, { path: "/tmp/settings-company-users.png" });

  await rows.first().getByRole("button", { name: "Editar" }).click();
  const edit = page.getByRole("dialog", { name: "Editar usuário" });
  await expect(edit.getByLabel("Nome")).toHaveValue("Ana Admin");
  await edit.getByLabel("Nome").fill("A");
  await edit.getByLabel("Nova senha").fill("123");
  await edit.getByRole("button", { name: "Salvar" }).click();
  await expect(edit.getByText("Muito curto!")).toHaveCount(2);
  await edit.getByLabel("Nome").fill("Ana Renomeada");
  await edit.getByLabel("Nova senha").fill("nova-senha-123");
  await screenshot(page, { path: "/tmp/settings-company-user-edit.png" });
  await edit.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Operação realizada com sucesso!").first()).toBeVisible();
  await expect(dialog.getByTestId("company-user").first()).toContainText("Ana Renomeada");
  expect(await db().one<{ name: string }>("SELECT name FROM users WHERE id = $1", [t.admin.id])).toEqual({ name: "Ana Renomeada" });

  // The new password works, the old one no longer does.
  const old = await page.request.post("/api/auth/login", { data: { email: t.admin.email, password: TEST_PASSWORD } });
  expect(old.status()).toBe(401);
  const fresh = await page.request.post("/api/auth/login", { data: { email: t.admin.email, password: "nova-senha-123" } });
  expect(fresh.ok()).toBe(true);
});
