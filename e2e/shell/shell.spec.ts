import type { Page } from "@playwright/test";
import { createTenant, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const nav = (page: Page) => page.getByRole("navigation").first();

test("greeting, admin due date and version in the shell", async ({ page }) => {
  const t = await createTenant({ dueDate: "2099-12-31" });
  await login(page, t.admin.email);
  const greeting = page.getByTestId("greeting");
  await expect(greeting).toContainText("Olá Ana Admin, bem-vindo a");
  await expect(greeting).toContainText("(Ativo até 31/12/2099)");
  await expect(page.getByTestId("app-version")).toHaveText("v5.2.1");
  await screenshot(page, { path: "/tmp/shell-light.png" });
});

test("an agent is greeted without the due date", async ({ page }) => {
  const t = await createTenant({ dueDate: "2099-12-31" });
  await login(page, t.user.email);
  await expect(page.getByTestId("greeting")).toContainText("Olá Ulisses Agente");
  await expect(page.getByTestId("greeting")).not.toContainText("Ativo até");
});

test("the theme switch applies at once and survives a reload", async ({ page }) => {
  const t = await createTenant();
  await login(page, t.admin.email);
  expect(await bodyBackground(page)).toBe("rgb(244, 246, 251)");
  await page.getByRole("button", { name: "Alternar tema" }).click();
  await expect.poll(() => bodyBackground(page)).toBe("rgb(15, 23, 42)");
  await page.reload();
  await expect(page.getByTestId("greeting")).toBeVisible();
  expect(await bodyBackground(page)).toBe("rgb(15, 23, 42)");
  await screenshot(page, { path: "/tmp/shell-dark.png" });
  await page.getByRole("button", { name: "Alternar tema" }).click();
  await expect.poll(() => bodyBackground(page)).toBe("rgb(244, 246, 251)");
});

test("switching to English translates the menu and is kept after a reload", async ({ page }) => {
  const t = await createTenant();
  await login(page, t.admin.email);
  await expect(nav(page).getByRole("link", { name: "Atendimentos" })).toBeVisible();
  await page.getByRole("button", { name: "Idioma" }).click();
  await page.getByRole("menuitem", { name: "English" }).click();
  await expect(nav(page).getByRole("link", { name: "Tickets" })).toBeVisible();
  await expect(nav(page).getByRole("link", { name: "Users" })).toBeVisible();
  await expect(nav(page).getByRole("link", { name: "Atendimentos" })).toHaveCount(0);
  await expect(page.getByTestId("greeting")).toContainText("Hello Ana Admin, welcome to");
  await page.reload();
  await expect(nav(page).getByRole("link", { name: "Settings" })).toBeVisible();
  await page.getByRole("button", { name: "Language" }).click();
  await page.getByRole("menuitem", { name: "Español" }).click();
  await expect(nav(page).getByRole("link", { name: "Usuarios" })).toBeVisible();
  await page.getByRole("button", { name: "Idioma" }).click();
  await page.getByRole("menuitem", { name: "Português" }).click();
  await expect(nav(page).getByRole("link", { name: "Usuários" })).toBeVisible();
});

test("logout returns to /login and the session is gone", async ({ page }) => {
  const t = await createTenant();
  await login(page, t.user.email);
  await page.getByRole("button", { name: "Minha conta" }).click();
  await page.getByRole("menuitem", { name: "Sair" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/tickets");
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
});

test("the volume slider stores a value between 0 and 1 in steps of 0.1", async ({ page }) => {
  const t = await createTenant();
  await login(page, t.user.email);
  expect(await page.evaluate(() => localStorage.getItem("volume"))).toBeNull();
  await page.getByRole("button", { name: "Volume" }).click();
  const slider = page.getByRole("slider", { name: "Volume" });
  await expect(slider).toHaveAttribute("aria-valuenow", "1");
  await slider.press("ArrowLeft");
  await slider.press("ArrowLeft");
  await expect(slider).toHaveAttribute("aria-valuenow", "0.8");
  expect(await page.evaluate(() => localStorage.getItem("volume"))).toBe("0.8");
  await page.reload();
  await page.getByRole("button", { name: "Volume" }).click();
  await expect(page.getByRole("slider", { name: "Volume" })).toHaveAttribute("aria-valuenow", "0.8");
});

test("the drawer collapses to icons on a wide screen", async ({ page }) => {
  const t = await createTenant();
  await login(page, t.user.email);
  const drawer = page.getByTestId("app-drawer");
  await expect(drawer).toHaveAttribute("data-open", "true");
  await expect(nav(page).getByText("Contatos")).toBeVisible();
  await page.getByRole("button", { name: "Abrir ou fechar o menu" }).click();
  await expect(drawer).toHaveAttribute("data-open", "false");
  await expect(nav(page).getByText("Contatos")).toHaveCount(0);
  // Collapsed items still navigate.
  await nav(page).locator('[data-menu-key="contacts"]').click();
  await expect(page).toHaveURL(/\/contacts$/);
});

test.describe("narrow screen", () => {
  test.use({ viewport: { width: 480, height: 800 } });
  test("the drawer starts closed and closes itself after navigating", async ({ page }) => {
    const t = await createTenant();
    await login(page, t.user.email);
    const contacts = page.getByRole("link", { name: "Contatos" });
    await expect(contacts).not.toBeVisible();
    await page.getByRole("button", { name: "Abrir ou fechar o menu" }).click();
    await expect(contacts).toBeVisible();
    await contacts.click();
    await expect(page).toHaveURL(/\/contacts$/);
    await expect(contacts).not.toBeVisible();
  });
});

test("the profile dialog edits the user's own name", async ({ page }) => {
  const t = await createTenant();
  await login(page, t.user.email);
  await page.getByRole("button", { name: "Minha conta" }).click();
  await page.getByRole("menuitem", { name: "Perfil" }).click();
  const dialog = page.getByRole("dialog");
  const name = dialog.getByLabel("Nome");
  await name.fill("U");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("Muito curto!")).toBeVisible();
  await name.fill("Ulisses Renomeado");
  await dialog.getByLabel("Nova senha").fill("123");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("Muito curto!")).toBeVisible();
  await dialog.getByLabel("Nova senha").fill("");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("greeting")).toContainText("Olá Ulisses Renomeado");
});

test("changing one's own password in the profile dialog asks for the current one", async ({ page }) => {
  const t = await createTenant();
  await login(page, t.user.email);
  await page.getByRole("button", { name: "Minha conta" }).click();
  await page.getByRole("menuitem", { name: "Perfil" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nova senha").fill("novasenha1");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("Obrigatório")).toBeVisible();
  await dialog.getByLabel("Senha atual").fill("errada123");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("A senha atual está incorreta.")).toBeVisible();
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Senha atual").fill("secret123");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog).toBeHidden();
  // The session that changed the password goes on.
  await page.reload();
  await expect(page.getByTestId("greeting")).toBeVisible();
});
