import type { Page } from "@playwright/test";
import { buildUser, createTenant, db, expect, login, test } from "../support/fixtures.js";

/** The visible menu items, in order. */
async function menuTexts(page: Page): Promise<string[]> {
  const nav = page.getByRole("navigation", { name: "Menu principal" });
  await expect(nav.getByRole("link").first()).toBeVisible();
  return (await nav.getByRole("link").allInnerTexts()).map((s) => s.trim());
}

const MAIN_FOR_EVERYONE = ["Atendimentos", "Respostas Rápidas", "Kanban", "Contatos", "Agendamentos", "Chat Interno", "Tarefas", "Ajuda", "Conexões", "Assinatura"];
const DISPAROS_START = ["Campanhas", "Templates", "Números", "Centros de Custo", "Disparo de Emails", "Emails Enviados", "SMS Sandbox"];
const DISPAROS = [...DISPAROS_START, "Caixa de Teste (E-mail)", "Descadastros"];
/** Admins also manage the e-mail senders. */
const DISPAROS_ADMIN = [...DISPAROS_START, "Remetentes de E-mail", "Caixa de Teste (E-mail)", "Descadastros"];
const BLOQUEIOS = ["Palavras-chave"];

test.describe("menu per role (spec 1-core §2, §6)", () => {
  test("an agent sees only the main items", async ({ page }) => {
    const t = await createTenant();
    await login(page, t.user.email);
    expect(await menuTexts(page)).toEqual(MAIN_FOR_EVERYONE);
    await expect(page.getByText("Disparos")).toHaveCount(0);
    await expect(page.getByText("Administração")).toHaveCount(0);
  });

  test("a supervisor adds reports, the 'Disparos' and 'Bloqueios' blocks, but no users", async ({ page }) => {
    const t = await createTenant();
    await login(page, t.supervisor.email);
    expect(await menuTexts(page)).toEqual(["Relatórios", ...MAIN_FOR_EVERYONE, ...DISPAROS, ...BLOQUEIOS]);
    await expect(page.getByText("Disparos", { exact: true })).toBeVisible();
    await expect(page.getByText("Bloqueios", { exact: true })).toBeVisible();
  });

  test("an admin adds the dashboard and the administration block", async ({ page }) => {
    const t = await createTenant();
    await login(page, t.admin.email);
    expect(await menuTexts(page)).toEqual([
      "Dashboard",
      "Relatórios",
      ...MAIN_FOR_EVERYONE,
      ...DISPAROS_ADMIN,
      ...BLOQUEIOS,
      "Usuários",
      "Filas & Chatbot",
      "Tags",
      "Auditoria",
      "Configurações",
    ]);
    await expect(page.getByText("Administração", { exact: true })).toBeVisible();
  });

  test("a super administrator also sees the platform items", async ({ page }) => {
    // Its own super user: logging in as the seeded one would end that account's sessions in parallel tests.
    const t = await createTenant();
    const sup = await buildUser(db(), t.companyId, { profile: "admin", super: true });
    await login(page, sup.email);
    expect(await menuTexts(page)).toEqual([
      "Dashboard",
      "Relatórios",
      ...MAIN_FOR_EVERYONE,
      ...DISPAROS_ADMIN,
      ...BLOQUEIOS,
      "Usuários",
      "Filas & Chatbot",
      "Tags",
      "Informativos",
      "Open.Ai",
      "Integrações",
      "API",
      "Financeiro",
      "Auditoria",
      "Configurações",
    ]);
  });

  test("a page beyond the role is not reachable by address", async ({ page }) => {
    const t = await createTenant();
    await login(page, t.user.email);
    await page.goto("/users");
    await expect(page).toHaveURL(/\/tickets$/);
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/tickets$/);
  });
});

test.describe("menu per plan flag", () => {
  test("a plan without kanban, campaigns and internal chat hides them and /kanban redirects", async ({ page }) => {
    const t = await createTenant({ plan: { flags: { useKanban: false, useCampaigns: false, useInternalChat: false } } });
    await login(page, t.admin.email);
    const items = await menuTexts(page);
    expect(items).not.toContain("Kanban");
    expect(items).not.toContain("Chat Interno");
    for (const item of ["Campanhas", "Templates", "Centros de Custo", "Disparo de Emails", "Emails Enviados"]) expect(items).not.toContain(item);
    // Numbers (official connections) need no plan flag.
    expect(items).toContain("Números");
    expect(items).toContain("Usuários");
    await page.goto("/kanban");
    await expect(page).toHaveURL(/\/tickets$/);
    await page.goto("/campaigns");
    await expect(page).toHaveURL(/\/tickets$/);
  });

  test("the same plan with kanban on shows it and opens /kanban", async ({ page }) => {
    const t = await createTenant({ plan: { flags: { useKanban: true } } });
    await login(page, t.user.email);
    await page.getByRole("link", { name: "Kanban" }).click();
    await expect(page).toHaveURL(/\/kanban$/);
  });
});
