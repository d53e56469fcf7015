import type { Page } from "@playwright/test";
import { watchConsole } from "../sandbox/helpers.js";
import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { themeShots } from "../support/screenshots.js";
import { expectNoSidewaysScroll } from "../support/layout.js";

/**
 * The opt-out list (campaigns area, supervisors and above): what replies, unsubscribes and bounces put
 * there is listed and searchable; a number is added by hand; one entry is removed after a confirmation.
 * Looked at in light and dark theme at 1366 and 390 px.
 */
async function shots(page: Page, name: string) {
  // nothing wider than the phone's screen
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId("opt-out-row").first()).toBeVisible();
  await expectNoSidewaysScroll(page, 390);
  await page.setViewportSize({ width: 1366, height: 860 });
  await themeShots(page, name, () => expect(page.getByTestId("opt-out-row").first()).toBeVisible(), { fullPage: true });
}

test("a supervisor sees, searches, adds and removes opt-outs", async ({ page }) => {
  const consoleErrors = watchConsole(page);
  const tenant = await createTenant();
  const other = await createTenant();
  await db().exec(
    `INSERT INTO opt_outs (company_id, channel, address, source, reference, created_at) VALUES
       ($1, 'sms', '5511977776666', 'reply', 'sms-campaign:12', now() - interval '2 hours'),
       ($1, 'email', 'devolvido@cliente.test', 'bounce', 'email-campaign:7', now() - interval '1 hour'),
       ($2, 'email', 'outra@empresa.test', 'unsubscribe', 'email-campaign:1', now())`,
    [tenant.companyId, other.companyId],
  );

  await login(page, tenant.supervisor.email);
  await page.goto("/campaigns");
  await page.getByRole("link", { name: "Descadastros" }).click();
  await expect(page).toHaveURL(/\/opt-outs$/);
  const rows = page.getByTestId("opt-out-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText("devolvido@cliente.test");
  await expect(rows.first()).toContainText("E-mail devolvido");
  await expect(rows.first()).toContainText("Campanha de e-mail #7");
  await expect(rows.nth(1)).toContainText("+5511977776666");
  await expect(rows.nth(1)).toContainText("Resposta (SAIR/PARAR)");
  await expect(page.getByText("outra@empresa.test")).toHaveCount(0);

  // search by part of the number as people write it, then by channel
  await page.getByPlaceholder("E-mail ou número").fill("97777-6666");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("+5511977776666");
  await page.getByPlaceholder("E-mail ou número").fill("");
  await page.getByRole("combobox", { name: /^Canal/ }).click();
  await page.getByRole("option", { name: "E-mail" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("devolvido@cliente.test");
  await page.getByRole("combobox", { name: /^Canal/ }).click();
  await page.getByRole("option", { name: "Todos" }).click();
  await expect(rows).toHaveCount(2);

  // add: the number checked, stored as E.164 digits
  await page.getByRole("button", { name: "Adicionar" }).click();
  const add = page.getByRole("dialog", { name: "Adicionar descadastro" });
  await add.getByRole("textbox", { name: "Número" }).fill("12ab");
  await add.getByRole("button", { name: "Salvar" }).click();
  await expect(add.getByText("Número de telefone inválido.")).toBeVisible();
  await add.getByRole("textbox", { name: "Número" }).fill("(11) 98888-7777");
  await add.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Incluído na lista de descadastros.")).toBeVisible();
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText("+5511988887777");
  await expect(rows.first()).toContainText("Incluído manualmente");
  // by whom: the user's name, not an id
  await expect(rows.first()).toContainText("Sergio Supervisor");
  // the same number again is refused with the catalogue's message (the browser logs the 409)
  consoleErrors.allow(/409 \(Conflict\).*\/api\/opt-outs/);
  await page.getByRole("button", { name: "Adicionar" }).click();
  await add.getByRole("textbox", { name: "Número" }).fill("+55 11 98888-7777");
  await add.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Este endereço ou número já está na lista de descadastros.").first()).toBeVisible();
  await add.getByRole("button", { name: "Cancelar" }).click();

  await shots(page, "opt-outs");

  // remove asks first; closing the question keeps the entry
  const bounced = rows.filter({ hasText: "devolvido@cliente.test" });
  await bounced.getByRole("button", { name: "Remover da lista" }).click();
  const confirm = page.getByRole("dialog", { name: "Remover devolvido@cliente.test da lista?" });
  await expect(confirm).toContainText("As próximas campanhas voltarão a enviar mensagens para este destinatário.");
  await confirm.getByRole("button", { name: "Cancelar" }).click();
  await expect(confirm).toBeHidden();
  await expect(rows).toHaveCount(3);
  await bounced.getByRole("button", { name: "Remover da lista" }).click();
  await confirm.getByRole("button", { name: "Remover da lista" }).click();
  await expect(page.getByText("Removido da lista de descadastros.")).toBeVisible();
  await expect(rows).toHaveCount(2);
  await expect(page.getByText("devolvido@cliente.test")).toHaveCount(0);
  const left = await db().many<{ address: string }>("SELECT address FROM opt_outs WHERE company_id = $1 ORDER BY address", [tenant.companyId]);
  expect(left.map((r) => r.address)).toEqual(["5511977776666", "5511988887777"]);

  // on a phone: the same list, the remove button within reach
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(rows.first().getByRole("button", { name: "Remover da lista" })).toBeInViewport();
  expect(consoleErrors.errors).toEqual([]);
});

test("an agent has no opt-out list", async ({ page }) => {
  const tenant = await createTenant();
  await login(page, tenant.user.email);
  await page.goto("/tickets");
  await expect(page.getByRole("link", { name: "Descadastros" })).toHaveCount(0);
});
