import { buildQueue, createTenant, db, expect, login, sealIn, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

interface SeedNumber {
  digits: string;
  display: string;
  name: string;
  tier: string;
  quality: string;
  phoneStatus: "ACTIVE" | "DISABLED";
  reason?: string;
  operating?: string;
  active?: boolean;
}

/** A business (WABA) with official numbers, as a sync would have stored them. */
async function seedBusiness(companyId: number, name: string, wabaId: string, numbers: SeedNumber[]): Promise<number> {
  const sql = db();
  const b = await sql.one<{ id: number }>(
    `INSERT INTO businesses (company_id, name, waba_id, access_token, app_secret, verify_token, account_status)
     VALUES ($1, $2, $3, '', '', '', 'APPROVED') RETURNING id`,
    [companyId, name, wabaId],
  );
  await sealIn("businesses", b.id, { access_token: "token", app_secret: "secret", verify_token: "verify-token" });
  for (const [i, n] of numbers.entries()) {
    const hasDefault = await sql.maybe("SELECT 1 FROM whatsapps WHERE company_id = $1 AND is_default", [companyId]);
    const w = await sql.one<{ id: number }>(
      `INSERT INTO whatsapps (company_id, name, provider, is_official, status, number, is_default)
       VALUES ($1, $2, 'official', true, 'CONNECTED', $3, $4) RETURNING id`,
      [companyId, n.name, n.digits, !hasDefault],
    );
    await sql.exec(
      `INSERT INTO official_numbers (company_id, whatsapp_id, business_id, phone_number_id, phone_number, display_phone_number, verified_name,
                                     messaging_limit, quality_score, phone_status, phone_status_reason, operating_status, active, can_send_message)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [
        companyId,
        w.id,
        b.id,
        `${wabaId}${i}`,
        n.digits,
        n.display,
        n.name,
        n.tier,
        n.quality,
        n.phoneStatus,
        n.reason ?? "",
        n.operating ?? "CONNECTED",
        n.active ?? true,
        n.phoneStatus === "DISABLED" ? "BLOCKED" : "AVAILABLE",
      ],
    );
  }
  return b.id;
}

test("the official connections page filters numbers, shows their health and edits several at once", async ({ page }) => {
  const tenant = await createTenant();
  const queue = await buildQueue(db(), tenant.companyId, { name: "Retenção", color: "#6A1B9A" });
  await seedBusiness(tenant.companyId, "Matriz", "1001", [
    { digits: "5511940000001", display: "+55 11 94000-0001", name: "Loja Centro", tier: "TIER_1K", quality: "GREEN", phoneStatus: "ACTIVE" },
    { digits: "5511940000002", display: "+55 11 94000-0002", name: "Loja Norte", tier: "TIER_10K", quality: "YELLOW", phoneStatus: "ACTIVE" },
  ]);
  await seedBusiness(tenant.companyId, "Filial Sul", "2002", [
    { digits: "5551940000003", display: "+55 51 94000-0003", name: "Loja Sul", tier: "TIER_250", quality: "RED", phoneStatus: "DISABLED", reason: "BANNED", operating: "BANNED", active: false },
  ]);

  await login(page, tenant.admin.email);
  await page.goto("/connectionsMeta");
  await expect(page.getByRole("heading", { name: "Números oficiais" })).toBeVisible();
  const rows = page.getByTestId("official-row");
  await expect(rows).toHaveCount(3);

  // health: phoneStatus ACTIVE green / DISABLED red; quality colours
  const sul = rows.filter({ hasText: "+55 51 94000-0003" });
  await expect(sul.getByTestId("phone-status")).toHaveText("DESATIVADO");
  await expect(sul.getByTestId("phone-status")).toHaveCSS("background-color", "rgb(198, 40, 40)");
  await expect(sul.getByTestId("quality")).toHaveCSS("background-color", "rgb(198, 40, 40)");
  await expect(sul.getByTestId("tier")).toHaveText("250");
  const centro = rows.filter({ hasText: "+55 11 94000-0001" });
  await expect(centro.getByTestId("phone-status")).toHaveCSS("background-color", "rgb(46, 125, 50)");
  await expect(centro.getByTestId("quality")).toHaveCSS("background-color", "rgb(46, 125, 50)");
  await expect(rows.filter({ hasText: "+55 11 94000-0002" }).getByTestId("quality")).toHaveCSS("background-color", "rgb(249, 168, 37)");
  await screenshot(page, { path: "/tmp/connections-meta-list.png" });

  // filters: phone search, business, active
  await page.getByRole("searchbox", { name: "Pesquisar número" }).fill("0002");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Loja Norte");
  await page.getByRole("searchbox", { name: "Pesquisar número" }).fill("");
  await expect(rows).toHaveCount(3);
  await page.getByRole("combobox", { name: /^Business/ }).click();
  await page.getByRole("option", { name: "Filial Sul", exact: true }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Loja Sul");
  await page.getByRole("combobox", { name: /^Business/ }).click();
  await page.getByRole("option", { name: "Todos os BMs", exact: true }).click();
  await page.getByRole("combobox", { name: /^Situação/ }).click();
  await page.getByRole("option", { name: "Inativos", exact: true }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Loja Sul");
  await page.getByRole("combobox", { name: /^Situação/ }).click();
  await page.getByRole("option", { name: "Ativos", exact: true }).click();
  await expect(rows).toHaveCount(2);

  // bulk edit: both active numbers get the transfer queue and become inactive
  await page.getByRole("checkbox", { name: "Selecionar todos" }).check();
  await page.getByRole("button", { name: "Editar selecionados (2)" }).click();
  const dialog = page.getByRole("dialog", { name: "Editar 2 números" });
  await dialog.getByRole("combobox", { name: /^Ativo/ }).click();
  await page.getByRole("option", { name: "Desativar", exact: true }).click();
  await dialog.getByRole("combobox", { name: /^Fila de transferência/ }).click();
  await page.getByRole("option", { name: "Retenção", exact: true }).click();
  await screenshot(page, { path: "/tmp/connections-meta-bulk.png" });
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("2 números atualizados com sucesso!")).toBeVisible();
  await expect(rows).toHaveCount(0); // the "Ativos" filter no longer matches them
  await page.getByRole("combobox", { name: /^Situação/ }).click();
  await page.getByRole("option", { name: "Todos", exact: true }).click();
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: "Loja Centro" }).getByTestId("transfer-queue")).toHaveText("Retenção");
  await expect(rows.filter({ hasText: "Loja Norte" }).getByTestId("active")).toHaveText("Não");
  const stored = await db().many<{ active: boolean; transfer_queue_id: number | null }>(
    "SELECT active, transfer_queue_id FROM official_numbers WHERE company_id = $1 AND phone_number LIKE '5511%' ORDER BY phone_number",
    [tenant.companyId],
  );
  expect(stored).toEqual([
    { active: false, transfer_queue_id: queue },
    { active: false, transfer_queue_id: queue },
  ]);

  // one number: reactivate it
  await rows.filter({ hasText: "Loja Centro" }).getByRole("button", { name: "Editar número" }).click();
  const single = page.getByRole("dialog", { name: "Editar +55 11 94000-0001" });
  await single.getByLabel("Ativo").check();
  await single.getByRole("button", { name: "Salvar" }).click();
  await expect(rows.filter({ hasText: "Loja Centro" }).getByTestId("active")).toHaveText("Sim");
  await expect(single).toBeHidden();
  await screenshot(page, { path: "/tmp/connections-meta-after.png" });

  // the accounts dialog lists both businesses without their secrets
  await page.getByRole("button", { name: "Contas (BM)" }).click();
  const accounts = page.getByRole("dialog", { name: "Contas do WhatsApp Business" });
  await expect(accounts.getByTestId("business-row")).toHaveCount(2);
  await expect(accounts).not.toContainText("verify-token");
  await page.waitForTimeout(400); // let the dialog finish fading in before the screenshot
  await screenshot(page, { path: "/tmp/connections-meta-businesses.png" });
});

test("a supervisor sees the numbers without edit controls; an agent cannot open the page", async ({ page }) => {
  const tenant = await createTenant();
  await seedBusiness(tenant.companyId, "Matriz", "3003", [
    { digits: "5511950000001", display: "+55 11 95000-0001", name: "Loja", tier: "TIER_1K", quality: "GREEN", phoneStatus: "ACTIVE" },
  ]);
  await login(page, tenant.supervisor.email);
  await page.goto("/connectionsMeta");
  await expect(page.getByTestId("official-row")).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Editar número" })).toHaveCount(0);
  await expect(page.getByRole("checkbox", { name: "Selecionar todos" })).toHaveCount(0);
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await login(page, tenant.user.email);
  await page.goto("/connectionsMeta");
  await expect(page.getByTestId("official-row")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Números oficiais" })).toHaveCount(0);
});
