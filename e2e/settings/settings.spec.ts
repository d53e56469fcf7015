import { createTenant, db, E2E_ADMIN, expect, login, test } from "../support/fixtures.js";
import { dateFieldInput, typeDate } from "../support/date-fields.js";
import { screenshot } from "../support/screenshots.js";

/** YYYY-MM-DD of today + days in the browser's time zone (the Playwright config uses São Paulo). */
/** 2026-11-30 as the Portuguese interface shows it: 30/11/2026. */
const shownDate = (iso: string) => iso.split("-").reverse().join("/");

function dayFromToday(days: number): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date());
  const [y, m, d] = today.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

test("an administrator switches options and sets the company's opening hours", async ({ page }) => {
  const tenant = await createTenant();
  await login(page, tenant.admin.email);
  await page.goto("/settings");
  await expect(page.getByRole("tab", { name: "Opções" })).toBeVisible();
  // Super-administrator tabs and options are hidden from a company administrator.
  await expect(page.getByRole("tab", { name: "Empresas" })).toHaveCount(0);
  await expect(page.getByRole("tab", { name: "Horários" })).toHaveCount(0);
  await expect(page.getByRole("switch", { name: "Criação de empresas (cadastro público)" })).toHaveCount(0);

  const requireTag = page.getByRole("switch", { name: "Tag obrigatória para fechar o ticket" });
  await expect(requireTag).not.toBeChecked();
  await requireTag.click();
  // spec 2 §8: a setting change says 'Configuração atualizada com sucesso.'
  await expect(page.getByText("Configuração atualizada com sucesso.").first()).toBeVisible();
  await expect(requireTag).toBeChecked();

  await page.getByTestId("schedule-type").locator("..").click();
  await page.getByRole("option", { name: "Gerenciamento por empresa" }).click();
  await expect(page.getByText("Operação atualizada com sucesso.").first()).toBeVisible();
  await expect(page.getByRole("tab", { name: "Horários" })).toBeVisible();
  // how long raw Cloud API deliveries are kept (LGPD): 3 days until changed
  await expect(page.getByTestId("webhook-retention-days").locator("..")).toContainText("3 dias");
  await page.getByTestId("webhook-retention-days").locator("..").click();
  await page.getByRole("option", { name: "7 dias" }).click();
  await expect(page.getByText("Operação atualizada com sucesso.").first()).toBeVisible();
  await screenshot(page, { path: "/tmp/settings-options.png" });

  const stored = await db().many<{ key: string; value: string }>("SELECT key, value FROM settings WHERE company_id = $1 ORDER BY key", [tenant.companyId]);
  expect(stored).toEqual(
    expect.arrayContaining([
      { key: "requireTagBeforeClosing", value: "enabled" },
      { key: "scheduleType", value: "company" },
      { key: "webhookRetentionDays", value: "7" },
    ]),
  );

  await page.getByRole("tab", { name: "Horários" }).click();
  await expect(page.locator('input[name="monday-start"]')).toHaveValue("08:00");
  await expect(page.locator('input[name="saturday-end"]')).toHaveValue("12:00");
  await expect(page.locator('input[name="sunday-end"]')).toHaveValue("00:00");
  const fridayEnd = page.locator('input[name="friday-end"]');
  await fridayEnd.fill("");
  await fridayEnd.pressSequentially("1730");
  await expect(fridayEnd).toHaveValue("17:30");
  await page.getByRole("button", { name: "Salvar horários" }).click();
  await expect(page.getByText("Horários atualizados com sucesso.")).toBeVisible();
  await screenshot(page, { path: "/tmp/settings-hours.png" });

  await page.reload();
  await expect(page.getByRole("switch", { name: "Tag obrigatória para fechar o ticket" })).toBeChecked();
  await page.getByRole("tab", { name: "Horários" }).click();
  await expect(page.locator('input[name="friday-end"]')).toHaveValue("17:30");
});

test("the super administrator manages companies, plans and help videos", async ({ page }) => {
  const stamp = Date.now().toString(36);
  await login(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.goto("/settings");
  await page.getByRole("tab", { name: "Planos" }).click();
  const planForm = page.getByRole("form", { name: "Planos" });
  await planForm.getByLabel("Nome").fill(`Plano ${stamp}`);
  await planForm.getByLabel("Usuários").fill("5");
  await planForm.getByLabel("Valor").fill("99.90");
  await planForm.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Operação realizada com sucesso!").first()).toBeVisible();
  await expect(page.getByTestId("plan-row").filter({ hasText: `Plano ${stamp}` })).toContainText("R$ 99,90");
  await screenshot(page, { path: "/tmp/settings-plans.png" });

  await page.getByRole("tab", { name: "Empresas" }).click();
  const form = page.getByRole("form", { name: "Empresas" });
  await form.getByRole("button", { name: "Salvar" }).click();
  await expect(form.getByText("Obrigatório").first()).toBeVisible();
  await form.locator('input[name="name"]').fill(`Empresa ${stamp}`);
  await form.getByLabel("E-mail").fill(`empresa-${stamp}@example.com`);
  await form.getByTestId("company-plan").locator("..").click();
  await page.getByRole("option", { name: `Plano ${stamp}` }).click();
  await typeDate(page, form, "Data de vencimento", shownDate(dayFromToday(5)).replaceAll("/", ""));
  await expect(dateFieldInput(form, "dueDate")).toHaveValue(shownDate(dayFromToday(5)));
  await form.getByLabel("Senha do administrador").fill("senha-forte-1");
  await form.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Operação realizada com sucesso!").first()).toBeVisible();
  const row = page.getByTestId("company-row").filter({ hasText: `Empresa ${stamp}` });
  await expect(row).toHaveAttribute("data-tone", "yellow");
  await screenshot(page, { path: "/tmp/settings-companies.png" });

  // Add one period (MENSAL: one month) and save: no longer close to the due date.
  await row.click();
  await expect(form.locator('input[name="name"]')).toHaveValue(`Empresa ${stamp}`);
  await form.getByRole("button", { name: "+ Vencimento" }).click();
  await expect(dateFieldInput(form, "dueDate")).not.toHaveValue(shownDate(dayFromToday(5)));
  await form.getByRole("button", { name: "Salvar" }).click();
  await expect(row).toHaveAttribute("data-tone", "none");
  const saved = await db().one<{ due: string }>("SELECT to_char(due_date, 'YYYY-MM-DD') AS due FROM companies WHERE name = $1", [`Empresa ${stamp}`]);
  expect(saved.due > dayFromToday(27)).toBe(true);

  // An overdue company is red.
  await db().exec("UPDATE companies SET due_date = $2 WHERE name = $1", [`Empresa ${stamp}`, dayFromToday(-10)]);
  await page.reload();
  await page.getByRole("tab", { name: "Empresas" }).click();
  await expect(page.getByTestId("company-row").filter({ hasText: `Empresa ${stamp}` })).toHaveAttribute("data-tone", "red");

  // Delete with confirmation.
  await page.getByTestId("company-row").filter({ hasText: `Empresa ${stamp}` }).click();
  await form.getByRole("button", { name: "Excluir" }).click();
  await expect(page.getByText("Deseja realmente excluir esse registro?")).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByTestId("company-row").filter({ hasText: `Empresa ${stamp}` })).toHaveCount(0);

  // The platform's own company cannot be deleted.
  const platform = await db().one<{ name: string }>("SELECT name FROM companies WHERE is_platform");
  await page.getByTestId("company-row").filter({ hasText: platform.name }).click();
  await form.getByRole("button", { name: "Excluir" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByText("Não é possível excluir a empresa da plataforma.")).toBeVisible();

  await page.getByRole("tab", { name: "Ajuda" }).click();
  const helpForm = page.getByRole("form", { name: "Ajuda" });
  await helpForm.getByLabel("Título").fill(`Primeiros passos ${stamp}`);
  await helpForm.getByLabel("Código do vídeo").fill("dQw4w9WgXcQ");
  await helpForm.getByLabel("Descrição").fill("Como configurar a empresa.");
  await helpForm.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByTestId("help-row").filter({ hasText: `Primeiros passos ${stamp}` })).toContainText("dQw4w9WgXcQ");
  await screenshot(page, { path: "/tmp/settings-helps.png" });
});
