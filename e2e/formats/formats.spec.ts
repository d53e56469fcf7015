import { buildQueue, createTenant, db, E2E_ADMIN, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

/**
 * Brazilian formats and small walk defects: the plan's 'Valor' typed the Brazilian way round-trips,
 * chips on light colours get dark text, and the users table keeps its edit button on a 390 px phone.
 */
test("the plan's Valor typed as 1.234,56 is stored as 1234.56 and shown back as 1.234,56", async ({ page }) => {
  const stamp = Date.now().toString(36);
  await login(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.goto("/settings");
  await page.getByRole("tab", { name: "Planos" }).click();
  const form = page.getByRole("form", { name: "Planos" });
  await form.getByLabel("Nome").fill(`Plano BR ${stamp}`);
  const valor = form.getByLabel("Valor");
  await valor.fill("99,90");
  await valor.blur();
  await expect(valor).toHaveValue("99,90");
  await form.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Operação realizada com sucesso!").first()).toBeVisible();
  const row = page.getByTestId("plan-row").filter({ hasText: `Plano BR ${stamp}` });
  await expect(row).toContainText("R$ 99,90");
  const stored = await db().one<{ value: string }>("SELECT value::text AS value FROM plans WHERE name = $1", [`Plano BR ${stamp}`]);
  expect(Number(stored.value)).toBe(99.9);

  // edit: the stored amount shows the Brazilian way; thousands typed with dots
  await row.click();
  await expect(valor).toHaveValue("99,90");
  await valor.fill("1.234,56");
  await form.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByTestId("plan-row").filter({ hasText: `Plano BR ${stamp}` })).toContainText("R$ 1.234,56");
  const edited = await db().one<{ value: string }>("SELECT value::text AS value FROM plans WHERE name = $1", [`Plano BR ${stamp}`]);
  expect(Number(edited.value)).toBe(1234.56);
  await page.getByTestId("plan-row").filter({ hasText: `Plano BR ${stamp}` }).click();
  await expect(valor).toHaveValue("1.234,56");
  await screenshot(page, { path: "/tmp/formats-plan-value.png" });
});

test("queue chips on a light colour have dark text, on a dark colour white text (queues list, users filter)", async ({ page }) => {
  const tenant = await createTenant();
  await buildQueue(db(), tenant.companyId, { name: "Amarela", color: "#FFEB3B" });
  await buildQueue(db(), tenant.companyId, { name: "Azul", color: "#0D47A1" });
  await login(page, tenant.admin.email);
  await page.goto("/queues");
  const chip = (name: string) => page.getByTestId("queue-row").filter({ hasText: name }).getByTestId("queue-color-chip");
  await expect(chip("Amarela")).toHaveCSS("color", "rgb(0, 0, 0)");
  await expect(chip("Azul")).toHaveCSS("color", "rgb(255, 255, 255)");
  await screenshot(page, { path: "/tmp/formats-queue-chips.png" });

  // the users page's queue filter painted every queue chip with white text
  await page.goto("/users");
  await page.getByTestId("queue-filter").getByRole("combobox").click();
  await page.getByRole("option", { name: "Amarela" }).click();
  await page.getByRole("option", { name: "Azul" }).click();
  await page.keyboard.press("Escape");
  const filterChip = (name: string) => page.getByTestId("queue-filter").locator(".MuiChip-root").filter({ hasText: name });
  await expect(filterChip("Amarela")).toHaveCSS("color", "rgb(0, 0, 0)");
  await expect(filterChip("Azul")).toHaveCSS("color", "rgb(255, 255, 255)");
  await screenshot(page, { path: "/tmp/formats-filter-chips.png" });
});

test("at 390 px the users table shows each row's edit button on screen", async ({ page }) => {
  const tenant = await createTenant();
  await page.setViewportSize({ width: 390, height: 844 });
  await login(page, tenant.admin.email);
  await page.goto("/users");
  const rows = page.getByTestId("user-row");
  await expect(rows.first()).toBeVisible();
  const edit = rows.filter({ hasText: "Sergio Supervisor" }).getByRole("button", { name: /^Editar/ });
  await expect(edit).toBeInViewport({ ratio: 1 });
  const box = await edit.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await screenshot(page, { path: "/tmp/formats-users-390.png" });
  await edit.click();
  await expect(page.getByRole("dialog")).toBeVisible();
});
