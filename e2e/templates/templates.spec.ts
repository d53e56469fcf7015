import type { Page } from "@playwright/test";
import { createTenant, db, expect, login, sealIn, test } from "../support/fixtures.js";
import { screenshot, themeShots } from "../support/screenshots.js";

/** A synced-looking business with one number and templates Meta would list (one rejected, one with a LOCATION header). */
async function seedMetaBusiness(companyId: number): Promise<void> {
  const sql = db();
  const b = await sql.one<{ id: number }>(
    `INSERT INTO businesses (company_id, name, waba_id, access_token, app_secret, verify_token, account_status)
     VALUES ($1, 'Conta Matriz', '4004', '', '', '', 'APPROVED') RETURNING id`,
    [companyId],
  );
  await sealIn("businesses", b.id, { access_token: "token", app_secret: "secret", verify_token: "verify-token" });
  const w = await sql.one<{ id: number }>(
    "INSERT INTO whatsapps (company_id, name, provider, is_official, status, number) VALUES ($1, 'Matriz', 'official', true, 'CONNECTED', '5511950000001') RETURNING id",
    [companyId],
  );
  await sql.exec(
    `INSERT INTO official_numbers (company_id, whatsapp_id, business_id, phone_number_id, phone_number, display_phone_number, messaging_limit)
     VALUES ($1, $2, $3, '40040', '5511950000001', '+55 11 95000-0001', 'TIER_10K')`,
    [companyId, w.id, b.id],
  );
  const tpl = (name: string, category: string, status: string, header: string, components: unknown[]) =>
    sql.exec(
      `INSERT INTO whatsapp_templates (company_id, business_id, name, language, category, status, header_format, components)
       VALUES ($1, $2, $3, 'pt_BR', $4, $5, $6, $7::jsonb)`,
      [companyId, b.id, name, category, status, header, JSON.stringify(components)],
    );
  await tpl("cupom_recusado", "MARKETING", "REJECTED", "", [{ type: "BODY", text: "Cupom {{1}}" }]);
  await tpl("nossa_loja", "UTILITY", "APPROVED", "LOCATION", [{ type: "HEADER", format: "LOCATION" }, { type: "BODY", text: "Venha nos visitar." }]);
}

const shoot = (page: Page, name: string) => themeShots(page, name, () => expect(page.getByTestId("template-row").first()).toBeVisible());

test("the WhatsApp templates tab lists the businesses' templates with status, category, type and filters, and opens a read-only view", async ({ page }) => {
  test.setTimeout(120_000);
  const tenant = await createTenant();
  await seedMetaBusiness(tenant.companyId);
  await login(page, tenant.admin.email);

  // the test business is created from the numbers page
  await page.goto("/connectionsMeta");
  await page.getByRole("button", { name: "Contas (BM)" }).click();
  await page.getByRole("button", { name: "Criar BM de teste" }).click();
  await expect(page.getByText("BM de teste (sandbox) pronta: 2 números e 5 templates.")).toBeVisible();
  await expect(page.getByTestId("business-row").filter({ hasText: "BM de teste (sandbox)" })).toContainText("Teste");
  await expect(page.getByRole("button", { name: "Criar BM de teste" })).toHaveCount(0);
  // its simulated failure share for campaign sends (default 5 %) is set in the same row
  const failures = page.getByTestId("business-row").filter({ hasText: "BM de teste (sandbox)" }).getByRole("textbox", { name: "Falha simulada" });
  await expect(failures).toHaveValue("5");
  await failures.fill("20");
  await failures.press("Enter");
  await expect(page.getByText("Taxa de falha da BM de teste salva.")).toBeVisible();
  await expect.poll(async () => (await db().one<{ r: string }>("SELECT sandbox_failure_rate::text AS r FROM businesses WHERE sandbox AND company_id = $1", [tenant.companyId])).r).toBe("0.200");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("official-row")).toHaveCount(3);

  // a number's campaign send rate (messages per second) is edited where numbers are shown
  const matriz = page.getByTestId("official-row").filter({ hasText: "+55 11 95000-0001" });
  await expect(matriz.getByTestId("throughput")).toHaveText("80");
  await matriz.getByRole("button", { name: "Editar número" }).click();
  const edit = page.getByRole("dialog");
  await edit.getByTestId("throughput-input").fill("1001");
  await expect(edit.getByText("Entre 1 e 1000")).toBeVisible();
  await expect(edit.getByRole("button", { name: "Salvar" })).toBeDisabled();
  await edit.getByTestId("throughput-input").fill("120");
  await edit.getByRole("button", { name: "Salvar" }).click();
  await expect(edit).toBeHidden();
  await expect(matriz.getByTestId("throughput")).toHaveText("120");
  const rate = await db().one<{ throughput_per_second: number }>("SELECT throughput_per_second FROM official_numbers WHERE company_id = $1 AND phone_number = '5511950000001'", [
    tenant.companyId,
  ]);
  expect(rate.throughput_per_second).toBe(120);
  await screenshot(page, { path: "/tmp/numbers-throughput-1366-light.png" });

  await page.goto("/templates");
  await expect(page.getByRole("heading", { name: "Templates" })).toBeVisible();
  await expect(page.getByLabel("Tipo de campanha")).toContainText("WhatsApp");
  const rows = page.getByTestId("template-row");
  await expect(rows).toHaveCount(7);

  const imagem = rows.filter({ hasText: "oferta_imagem" });
  await expect(imagem.getByTestId("template-status")).toHaveText("Ativo");
  await expect(imagem.getByTestId("category-badge")).toHaveText("MARKETING");
  await expect(imagem.getByTestId("category-badge")).toHaveCSS("background-color", "rgb(142, 36, 170)");
  await expect(imagem).toContainText("BM de teste (sandbox)");
  await expect(imagem.getByTestId("template-variables")).toHaveText(/^1\s*IMAGE$/);
  await imagem.getByTestId("image-badge").hover();
  await expect(page.getByRole("tooltip").filter({ hasText: "A URL da imagem deve ser a primeira variável após as colunas obrigatórias (telefone;cpf;email)" })).toBeVisible();
  await page.mouse.move(0, 0);
  await expect(rows.filter({ hasText: "codigo_verificacao" }).getByTestId("category-badge")).toHaveCSS("background-color", "rgb(21, 101, 192)");
  await expect(rows.filter({ hasText: "pedido_confirmado" }).getByTestId("category-badge")).toHaveCSS("background-color", "rgb(46, 125, 50)");

  const recusado = rows.filter({ hasText: "cupom_recusado" });
  await expect(recusado.getByTestId("template-status")).toHaveText("Desativado");
  await recusado.getByTestId("template-status").hover();
  await expect(page.getByRole("tooltip").filter({ hasText: "Template não aprovado pela Meta (status REJECTED)" })).toBeVisible();
  await page.mouse.move(0, 0);
  const ativo = rows.filter({ hasText: "entrega_agendada" });
  await ativo.getByTestId("template-status").hover();
  await expect(page.getByRole("tooltip").filter({ hasText: "Template ativo" })).toBeVisible();
  await page.mouse.move(0, 0);
  await expect(ativo.getByTestId("template-variables")).toHaveText("2");
  await page.mouse.move(0, 0);

  await shoot(page, "templates");

  // filters: name (300 ms), business, status, type
  await page.getByRole("searchbox", { name: "Pesquisar por nome..." }).fill("PEDIDO");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("pedido_confirmado");
  await page.getByRole("searchbox", { name: "Pesquisar por nome..." }).fill("");
  await expect(rows).toHaveCount(7);

  await page.getByRole("combobox", { name: "Business" }).click();
  await page.getByRole("option", { name: "Conta Matriz" }).click();
  await expect(rows).toHaveCount(2);
  await page.getByRole("combobox", { name: "Status" }).click();
  await page.getByRole("option", { name: "Desativado" }).click();
  await expect(rows).toHaveCount(2);
  await page.getByRole("combobox", { name: "Business" }).click();
  await page.getByRole("option", { name: "Todos" }).click();
  await expect(rows).toHaveCount(2);
  await page.getByRole("combobox", { name: "Status" }).click();
  await page.getByRole("option", { name: "Ativo" }).click();
  await expect(rows).toHaveCount(5);
  await page.getByRole("combobox", { name: "Tipo de template" }).click();
  await page.getByRole("option", { name: "IMAGE" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("oferta_imagem");
  await page.getByRole("combobox", { name: "Status" }).click();
  await page.getByRole("option", { name: "Desativado" }).click();
  await expect(page.getByTestId("empty-state")).toHaveText("Nenhum template encontrado com esses filtros.");
  await page.getByRole("combobox", { name: "Tipo de template" }).click();
  await page.getByRole("option", { name: "LOCATION" }).click();
  await expect(rows).toHaveCount(1);
  await rows.first().getByTestId("template-status").hover();
  await expect(page.getByRole("tooltip").filter({ hasText: "Cabeçalho do tipo LOCATION não é suportado em campanhas" })).toBeVisible();
  await page.mouse.move(0, 0);
  await page.mouse.move(0, 0);
  await page.getByRole("combobox", { name: "Status" }).click();
  await page.getByRole("option", { name: "Todos" }).click();
  await page.getByRole("combobox", { name: "Tipo de template" }).click();
  await page.getByRole("option", { name: "Todos" }).click();
  await expect(rows).toHaveCount(7);

  // the read-only view
  await rows.filter({ hasText: "entrega_agendada" }).getByRole("button", { name: "Visualizar template" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByLabel("Tipo")).toHaveText("WhatsApp");
  await expect(dialog.getByLabel("Nome")).toHaveValue("entrega_agendada");
  await expect(dialog.getByTestId("template-view-body")).toHaveValue("Olá {{1}}, sua entrega foi agendada para {{2}}.");
  await expect(dialog.getByLabel("Nome")).not.toBeEditable();
  await screenshot(page, { path: "/tmp/templates-view-1366-light.png" });
  await dialog.getByRole("button", { name: "Fechar" }).click();
  await expect(dialog).toBeHidden();
});

test("a supervisor sees the templates; the page shows why when nothing is synced", async ({ page }) => {
  const tenant = await createTenant();
  await login(page, tenant.supervisor.email);
  await page.goto("/templates");
  await expect(page.getByTestId("empty-state")).toHaveText(/Nenhum template/);
  // no add button for WhatsApp templates (they come from Meta)
  await expect(page.getByRole("button", { name: /Adicionar/ })).toHaveCount(0);
  // `npm start` alone gives a newcomer a campaign-ready business: the first start seeded the platform company's
  const seeded = await db().many<{ name: string; numbers: number; templates: number }>(
    `SELECT b.name, (SELECT count(*)::int FROM official_numbers o WHERE o.business_id = b.id) AS numbers,
            (SELECT count(*)::int FROM whatsapp_templates t WHERE t.business_id = b.id AND t.status = 'APPROVED') AS templates
       FROM businesses b JOIN companies c ON c.id = b.company_id WHERE c.is_platform AND b.sandbox`,
  );
  expect(seeded).toEqual([{ name: "BM de teste (sandbox)", numbers: 2, templates: 5 }]);
});
