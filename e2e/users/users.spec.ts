import type { Page } from "@playwright/test";
import { buildQueue, buildUser, createTenant, db, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1e4)}`;
const rows = (page: Page) => page.getByTestId("user-row");
const row = (page: Page, text: string) => rows(page).filter({ hasText: text });

async function openUsers(page: Page) {
  await page.getByRole("navigation").first().getByRole("link", { name: "Usuários" }).click();
  await expect(page).toHaveURL(/\/users$/);
  await expect(rows(page).first()).toBeVisible();
}

async function pickOption(page: Page, label: string, option: string) {
  await page.getByRole("dialog").getByLabel(label).click();
  await page.getByRole("option", { name: option }).click();
}

test("an admin lists, searches, filters, creates and edits users; no delete for admins", async ({ page }) => {
  const t = await createTenant();
  const suporte = await buildQueue(db(), t.companyId, { name: "Suporte" });
  await buildQueue(db(), t.companyId, { name: "Vendas" });
  await buildUser(db(), t.companyId, { name: "Quésia Fila", queueIds: [suporte] });
  await login(page, t.admin.email);
  await openUsers(page);
  await expect(rows(page)).toHaveCount(4);
  await expect(page.getByTestId("users-count")).toHaveText("(4)");
  await expect(row(page, "Sergio Supervisor")).toContainText("Supervisor");
  await expect(page.getByRole("button", { name: /^Excluir/ })).toHaveCount(0);
  await expect(page.getByRole("checkbox")).toHaveCount(0);
  await screenshot(page, { path: "/tmp/users.png" });

  // Search (debounced) and queue filter.
  await page.getByRole("textbox", { name: "Pesquisar" }).fill("sergio");
  await expect(rows(page)).toHaveCount(1);
  await page.getByRole("textbox", { name: "Pesquisar" }).fill("");
  await expect(rows(page)).toHaveCount(4);
  await page.getByTestId("queue-filter").getByRole("combobox").click();
  await page.getByRole("option", { name: "Suporte" }).click();
  await page.keyboard.press("Escape");
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("Quésia Fila");
  await page.getByTestId("queue-filter").getByRole("combobox").click();
  await page.getByRole("option", { name: "Suporte" }).click();
  await page.keyboard.press("Escape");
  await expect(rows(page)).toHaveCount(4);

  // Create: validation messages, then a supervisor in the Vendas queue.
  await page.getByRole("button", { name: "Adicionar usuário" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Adicionar" }).click();
  await expect(dialog.getByText("Obrigatório")).toHaveCount(3);
  await dialog.getByLabel("Nome").fill("Z");
  await dialog.getByLabel("Email").fill("bad");
  await dialog.getByLabel("Senha").fill("1234");
  await dialog.getByRole("button", { name: "Adicionar" }).click();
  await expect(dialog.getByText("Muito curto!")).toHaveCount(2);
  await expect(dialog.getByText("E-mail inválido")).toBeVisible();
  const email = `novo-${stamp()}@e2e.test`;
  await dialog.getByLabel("Nome").fill("Zélia Nova");
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("Senha").fill("12345");
  await pickOption(page, "Perfil", "Supervisor");
  await dialog.getByLabel("Filas").click();
  await page.getByRole("option", { name: "Vendas" }).click();
  await page.keyboard.press("Escape");
  await screenshot(page, { path: "/tmp/users-dialog.png" });
  await dialog.getByRole("button", { name: "Adicionar" }).click();
  await expect(page.getByText("Usuário salvo com sucesso!")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row(page, "Zélia Nova")).toContainText("Supervisor");
  await expect(rows(page)).toHaveCount(5);

  // Edit: the dialog opens with the saved data; a blank password keeps the old one.
  await page.getByRole("button", { name: "Editar Zélia Nova" }).click();
  await expect(dialog.getByLabel("Email")).toHaveValue(email);
  await expect(dialog.getByText("Vendas")).toBeVisible();
  await dialog.getByLabel("Nome").fill("Zélia Editada");
  await pickOption(page, "Perfil", "Usuário");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog).toBeHidden();
  await expect(row(page, "Zélia Editada")).toContainText("Usuário");
  await expect(row(page, "Zélia Nova")).toHaveCount(0);

  // The created user can log in with the password set at creation.
  const other = await page.context().browser()!.newContext({ baseURL: process.env.E2E_BASE_URL });
  try {
    await login(await other.newPage(), email, "12345");
  } finally {
    await other.close();
  }
});

test("a duplicate e-mail and the plan's user limit are refused with their messages", async ({ page }) => {
  const t = await createTenant({ plan: { users: 4 } });
  await login(page, t.admin.email);
  await openUsers(page);
  await page.getByRole("button", { name: "Adicionar usuário" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nome").fill("Duplicado");
  await dialog.getByLabel("Email").fill(t.user.email);
  await dialog.getByLabel("Senha").fill("12345");
  await dialog.getByRole("button", { name: "Adicionar" }).click();
  await expect(page.getByText("Este e-mail já está cadastrado.")).toBeVisible();
  await expect(dialog).toBeVisible();

  await dialog.getByLabel("Email").fill(`quarto-${stamp()}@e2e.test`);
  await dialog.getByRole("button", { name: "Adicionar" }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Adicionar usuário" }).click();
  await dialog.getByLabel("Nome").fill("Quinto");
  await dialog.getByLabel("Email").fill(`quinto-${stamp()}@e2e.test`);
  await dialog.getByLabel("Senha").fill("12345");
  await dialog.getByRole("button", { name: "Adicionar" }).click();
  await expect(page.getByText("O limite do plano da empresa foi atingido.")).toBeVisible();
});

test("an admin cannot edit another admin (server protection shown as a toast)", async ({ page }) => {
  const t = await createTenant();
  await buildUser(db(), t.companyId, { profile: "admin", name: "Outra Admin" });
  await login(page, t.admin.email);
  await openUsers(page);
  await page.getByRole("button", { name: "Editar Outra Admin" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nome").fill("Outra Admin Mudada");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Você não pode editar um administrador.")).toBeVisible();
});

test("the list follows live changes made elsewhere", async ({ page, request }) => {
  const t = await createTenant();
  const second = await buildUser(db(), t.companyId, { profile: "admin", name: "Bruno Admin" });
  await login(page, t.admin.email);
  await openUsers(page);
  await expect(rows(page)).toHaveCount(4);

  const res = await request.post(`${process.env.E2E_BASE_URL}/api/auth/login`, { data: { email: second.email, password: "secret123" } });
  const { token } = (await res.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };
  const created = await request.post(`${process.env.E2E_BASE_URL}/api/users`, {
    headers,
    data: { name: "Aparecida Ao Vivo", email: `live-${stamp()}@e2e.test`, password: "12345", profile: "user" },
  });
  expect(created.ok()).toBeTruthy();
  const { id } = (await created.json()) as { id: number };
  await expect(row(page, "Aparecida Ao Vivo")).toBeVisible();
  await request.put(`${process.env.E2E_BASE_URL}/api/users/${id}`, { headers, data: { name: "Aparecida Renomeada" } });
  await expect(row(page, "Aparecida Renomeada")).toBeVisible();
  await expect(row(page, "Aparecida Ao Vivo")).toHaveCount(0);
});

test("infinite scroll loads the next page near the bottom", async ({ page }) => {
  const t = await createTenant();
  for (let i = 0; i < 42; i++) await buildUser(db(), t.companyId, { name: `Pessoa ${String(i).padStart(2, "0")}` });
  await login(page, t.admin.email);
  await openUsers(page);
  await expect(page.getByTestId("users-count")).toHaveText("(45)");
  await expect(rows(page)).toHaveCount(20);
  const table = page.getByTestId("users-table");
  await table.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(rows(page)).toHaveCount(40);
  await table.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(rows(page)).toHaveCount(45);
});

// A super user of its own tenant: logging in as the seeded one would end its sessions in parallel tests.
async function createSuper() {
  const t = await createTenant();
  const sup = await buildUser(db(), t.companyId, { profile: "admin", super: true, name: "Sofia Super" });
  return { ...t, super: sup };
}

test("the super administrator deletes one user and then several at once", async ({ page }) => {
  const t = await createSuper();
  const tag = stamp();
  for (const n of ["Um", "Dois", "Tres"]) await buildUser(db(), t.companyId, { name: `Apagar ${n} ${tag}` });
  await login(page, t.super.email);
  await openUsers(page);
  await page.getByRole("textbox", { name: "Pesquisar" }).fill(tag);
  await expect(rows(page)).toHaveCount(3);

  await page.getByRole("button", { name: `Excluir Apagar Um ${tag}` }).click();
  await expect(page.getByRole("dialog")).toContainText("Deseja realmente excluir esse registro?");
  await page.getByRole("dialog").getByRole("button", { name: "Excluir" }).click();
  await expect(page.getByText("Usuário excluído com sucesso!")).toBeVisible();
  await expect(rows(page)).toHaveCount(2);

  await page.getByRole("checkbox", { name: "Selecionar todos" }).check();
  await page.getByRole("button", { name: "Excluir selecionados (2)" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Excluir" }).click();
  await expect(rows(page)).toHaveCount(0);
  await expect(page.getByText("Nenhum registro")).toBeVisible();
  const left = await db().one<{ n: number }>("SELECT count(*)::int AS n FROM users WHERE name LIKE $1", [`%${tag}`]);
  expect(left.n).toBe(0);
});

test("the super administrator's own row refuses deletion", async ({ page }) => {
  const t = await createSuper();
  await login(page, t.super.email);
  await openUsers(page);
  await expect(rows(page)).toHaveCount(4);
  await page.getByRole("button", { name: "Excluir Sofia Super" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Excluir" }).click();
  await expect(page.getByText("Você não pode excluir a sua própria conta.")).toBeVisible();
  await expect(rows(page)).toHaveCount(4);
});
