import type { Page } from "@playwright/test";
import { typeDate } from "../support/date-fields.js";
import { createTenant, db, expect, login, sealIn, test, type Tenant } from "../support/fixtures.js";
import { screenshot, screenshotsWanted, themeShots } from "../support/screenshots.js";

/** /campaigns and /new-campaign (spec 3 §2, §4, §5): the form with its summary, the list, the calendar. */

interface World {
  tenant: Tenant;
  costCenterId: number;
  otherCostCenterId: number;
  businessId: number;
}

/** A company with a cost center, a queue, a BM with one active number (tier 50) and an approved template. */
async function world(): Promise<World> {
  const tenant = await createTenant();
  const c = tenant.companyId;
  const one = <T>(text: string, params: unknown[]) => db().one<T>(text, params);
  const costCenterId = (await one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, 'Marketing') RETURNING id", [c])).id;
  const otherCostCenterId = (await one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, 'Cobrança') RETURNING id", [c])).id;
  await db().exec("INSERT INTO queues (company_id, name, color) VALUES ($1, 'Atendimento', '#1976d2')", [c]);
  await db().exec("INSERT INTO queue_integrations (company_id, type, name, project_name, url_n8n) VALUES ($1, 'webhook', 'Robô de ofertas', 'Robô de ofertas', 'https://bot.example.com')", [c]);
  const businessId = (await one<{ id: number }>(
    "INSERT INTO businesses (company_id, name, waba_id, access_token, app_secret, verify_token) VALUES ($1, 'BM Loja', $2, '', '', '') RETURNING id",
    [c, `waba-e2e-${c}`],
  )).id;
  await sealIn("businesses", businessId, { access_token: "tok", app_secret: "sec", verify_token: "ver" });
  const w = await one<{ id: number }>("INSERT INTO whatsapps (company_id, name, provider, is_official, status) VALUES ($1, 'Oficial', 'official', true, 'CONNECTED') RETURNING id", [c]);
  await db().exec(
    `INSERT INTO official_numbers (company_id, whatsapp_id, business_id, phone_number_id, phone_number, display_phone_number, verified_name, messaging_limit)
     VALUES ($1, $2, $3, $4, '5511930000001', '+55 11 93000-0001', 'Loja', 'TIER_50')`,
    [c, w.id, businessId, `pn-e2e-${c}`],
  );
  await db().exec(
    `INSERT INTO whatsapp_templates (company_id, business_id, name, language, category, status, components, variable_count)
     VALUES ($1, $2, 'boas_vindas', 'pt_BR', 'MARKETING', 'APPROVED', $3, 1)`,
    [c, businessId, JSON.stringify([{ type: "BODY", text: "Olá {{1}}, conheça nossas ofertas!" }])],
  );
  return { tenant, costCenterId, otherCostCenterId, businessId };
}

async function campaignRow(w: World, o: { name: string; createdAt: string; status?: string; costCenterId?: number; counters?: Record<string, number> }) {
  const cols = Object.keys(o.counters ?? {});
  return (await db().one<{ id: number }>(
    `INSERT INTO campaigns (company_id, name, cost_center_id, business_id, status, created_at${cols.map((x) => `, ${x}`).join("")})
     VALUES ($1, $2, $3, $4, $5, $6${cols.map((_, i) => `, $${i + 7}`).join("")}) RETURNING id`,
    [w.tenant.companyId, o.name, o.costCenterId ?? w.costCenterId, w.businessId, o.status ?? "READY", o.createdAt, ...Object.values(o.counters ?? {})],
  )).id;
}

async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option }).click();
}

const shots = (page: Page, name: string) => themeShots(page, name, undefined, { fullPage: true });

test("a campaign is created through the form with its summary and reaches Ativa in the list", async ({ page }) => {
  const w = await world();
  await login(page, w.tenant.supervisor.email);
  await page.goto("/new-campaign");
  await expect(page.getByTestId("form-loading")).toBeHidden();

  // spec §5 in order: the first missing field first
  await page.getByRole("button", { name: "Revisar campanha" }).click();
  await expect(page.getByText("O centro de custo é obrigatório.")).toBeVisible();
  await expect(page.getByText("O título da campanha é obrigatório.")).toBeVisible();
  await expect(page.getByText("O arquivo é obrigatório.")).toBeVisible();
  await expect(page.getByText("O BM é obrigatório.")).toBeVisible();
  await expect(page.getByText("O template é obrigatório.")).toBeVisible();
  await expect(page.getByText("A fila é obrigatória.")).toBeVisible();

  // 60 recipients, one with an invalid number; the portfolio may still reach 50 people today
  const lines = ["telefone;cpf;email;nome"];
  for (let i = 0; i < 59; i++) lines.push(`1193000${String(1000 + i)};${i};c${i}@x.com;Cliente ${i}`);
  lines.push("12;999;bad@x.com;Inválido");
  await page.getByTestId("campaign-file").setInputFiles({ name: "clientes.csv", mimeType: "text/csv", buffer: Buffer.from(lines.join("\n")) });
  await page.getByLabel("Título da campanha").fill("Ofertas de Natal");
  await choose(page, "Centro de custo", "Marketing");
  await choose(page, "BM", "BM Loja");
  await choose(page, "Templates", /boas_vindas/);
  await page.keyboard.press("Escape");
  await expect(page.getByText("1 coluna de variável")).toBeVisible(); // the count agrees with its noun
  await choose(page, "Fila", "Atendimento");
  // the optional bot that will answer the replies
  await choose(page, "Bot", "Robô de ofertas");
  await screenshot(page, { path: "/tmp/campaigns-new-1366-light.png", fullPage: true });
  await page.getByRole("button", { name: "Revisar campanha" }).click();

  const dialog = page.getByRole("dialog", { name: "Resumo da Campanha" });
  await expect(dialog.getByTestId("summary-messages")).toHaveText("60");
  await expect(dialog.getByTestId("summary-output")).toHaveText("50");
  // more messages than the output: in red
  await expect(dialog.getByTestId("summary-output")).toHaveAttribute("data-over", "true");
  await expect(dialog.getByText("Ofertas de Natal")).toBeVisible();
  await expect(dialog.getByText("Robô de ofertas")).toBeVisible();
  await screenshot(page, { path: "/tmp/campaigns-summary-1366-light.png" });
  await dialog.getByRole("button", { name: "Confirmar" }).click();

  await expect(page).toHaveURL(/\/campaigns$/);
  const row = page.getByTestId("campaign-row").filter({ hasText: "Ofertas de Natal" });
  await expect(row).toBeVisible();
  // the analysis ends and the live event (or the 30 s refresh) updates the row
  await expect(row.getByTestId("campaign-status")).toHaveText("Ativa", { timeout: 30_000 });
  await expect(row).toContainText("60");
  // the invalid row and its reason
  await row.getByRole("button", { name: "Linhas inválidas" }).first().click();
  const invalid = page.getByRole("dialog");
  await expect(invalid.getByTestId("invalid-row")).toHaveCount(1);
  await expect(invalid.getByTestId("invalid-row")).toContainText("Número de telefone inválido.");
  await invalid.getByRole("button", { name: "Fechar" }).click();
  const stored = await db().one<{ count_total: number; count_invalid: number; status: string; bot: string }>(
    `SELECT c.count_total, c.count_invalid, c.status, i.name AS bot FROM campaigns c JOIN queue_integrations i ON i.id = c.integration_id
      WHERE c.company_id = $1 AND c.name = 'Ofertas de Natal'`,
    [w.tenant.companyId],
  );
  expect(stored).toEqual({ count_total: 60, count_invalid: 1, status: "READY", bot: "Robô de ofertas" });

  await page.goto("/new-campaign");
  await expect(page.getByTestId("form-loading")).toBeHidden();
  await shots(page, "campaigns-new");
});

test("the list: labels and actions by status, delivery %, filters and paging", async ({ page }) => {
  const w = await world();
  for (let i = 0; i < 21; i++) await campaignRow(w, { name: `Lote ${String(i).padStart(2, "0")}`, createdAt: `2026-04-10T15:${String(i).padStart(2, "0")}:00Z` });
  await campaignRow(w, {
    name: "Em andamento",
    createdAt: "2026-04-12T15:00:00Z",
    status: "RUNNING",
    counters: { count_total: 1000, count_invalid: 100, count_processed: 450, count_sent: 450, count_delivered: 333 },
  });
  await campaignRow(w, { name: "Terminada", createdAt: "2026-04-13T15:00:00Z", status: "FINISHED", costCenterId: w.otherCostCenterId });
  await campaignRow(w, { name: "Quebrada", createdAt: "2026-04-14T15:00:00Z", status: "ERROR" });
  await db().exec("UPDATE campaigns SET error_message = 'Faltam os seguintes cabeçalhos obrigatórios: cpf', account_violation = '' WHERE name = 'Quebrada' AND company_id = $1", [w.tenant.companyId]);
  await db().exec("UPDATE campaigns SET account_violation = 'Conta restrita pela Meta' WHERE name = 'Em andamento' AND company_id = $1", [w.tenant.companyId]);
  // the server's dispatcher runs: the running campaign keeps a recipient whose retry is due tomorrow, so
  // it stays "Em Disparo" (with nothing left it would be finished and its counters recounted)
  await db().exec(
    `INSERT INTO campaign_recipients (company_id, campaign_id, row_number, phone, state, next_attempt_at)
     SELECT company_id, id, 1, '5511930009999', 'pending', now() + interval '1 day' FROM campaigns WHERE name = 'Em andamento' AND company_id = $1`,
    [w.tenant.companyId],
  );

  await login(page, w.tenant.admin.email);
  await page.goto("/campaigns");
  await expect(page.getByTestId("page-label")).toHaveText("Página 1 de 2");
  await expect(page.getByTestId("campaign-row")).toHaveCount(20);
  const running = page.getByTestId("campaign-row").filter({ hasText: "Em andamento" });
  await expect(running.getByTestId("campaign-status")).toHaveText("Em Disparo");
  // 333 / (1000 − 100) = 37 %, written the Brazilian way
  await expect(running.getByTestId("delivery-percent")).toHaveText("37,00%");
  await expect(running.getByRole("button", { name: "Pausar" })).toBeEnabled();
  await expect(running.getByTestId("account-violation")).toHaveText("Conta restrita pela Meta");
  await expect(running.getByRole("progressbar")).toBeVisible();
  const finished = page.getByTestId("campaign-row").filter({ hasText: "Terminada" });
  await expect(finished.getByTestId("campaign-status")).toHaveText("Finalizada");
  await expect(finished.getByRole("button", { name: "Finalizada" })).toBeDisabled();
  const broken = page.getByTestId("campaign-row").filter({ hasText: "Quebrada" });
  await expect(broken.getByTestId("campaign-status")).toHaveText("Erro");
  await expect(broken.getByLabel("Faltam os seguintes cabeçalhos obrigatórios: cpf")).toBeVisible();
  await expect(page.getByTestId("campaign-row").filter({ hasText: "Lote 20" }).getByRole("button", { name: "Iniciar" })).toBeEnabled();

  // start is the dispatch module's route; without it (or refused) the spec's toast shows
  await page.route("**/api/campaigns/*/start", (route) => route.fulfill({ status: 500, contentType: "application/json", body: '{"error":"ERR_INTERNAL","message":"x"}' }));
  await page.getByTestId("campaign-row").filter({ hasText: "Lote 20" }).getByRole("button", { name: "Iniciar" }).click();
  await expect(page.getByText("Erro ao iniciar campanha")).toBeVisible();

  await page.getByRole("button", { name: "Próximo" }).click();
  await expect(page.getByTestId("page-label")).toHaveText("Página 2 de 2");
  await expect(page.getByTestId("campaign-row")).toHaveCount(4);
  await page.getByRole("button", { name: "Anterior" }).click();
  await expect(page.getByTestId("page-label")).toHaveText("Página 1 de 2");

  await choose(page, "Status", "Finalizada");
  await expect(page.getByTestId("campaign-row")).toHaveCount(1);
  await expect(page.getByTestId("page-label")).toHaveText("Página 1 de 1");
  await choose(page, "Status", "Todos");
  await choose(page, "Centro de custo", "Cobrança");
  await expect(page.getByTestId("campaign-row")).toHaveCount(1);
  await choose(page, "Centro de custo", "Todos");
  // 12/04 to 13/04 (the company's days): the running one and the finished one
  await typeDate(page, page, "Data inicial", "12042026");
  await typeDate(page, page, "Data final", "13042026");
  await expect(page.getByTestId("campaign-row")).toHaveCount(2);
  await page.getByRole("button", { name: "Limpar filtros" }).click();
  await expect(page.getByTestId("campaign-row")).toHaveCount(20);

  await shots(page, "campaigns-list");
});

test("the calendar: a send is scheduled, edited and deleted", async ({ page }) => {
  const w = await world();
  const id = await campaignRow(w, { name: "Agendar Esta", createdAt: new Date().toISOString() });
  await login(page, w.tenant.supervisor.email);
  await page.goto("/campaigns");
  await page.getByRole("button", { name: "Calendário" }).click();
  await expect(page.getByTestId("campaign-calendar")).toBeVisible();
  // the 15th of next month at 10:30
  const next = new Date();
  next.setDate(1);
  next.setMonth(next.getMonth() + 1);
  const mm = String(next.getMonth() + 1).padStart(2, "0");
  const yyyy = String(next.getFullYear());
  await page.getByRole("button", { name: "Agendar envio" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("combobox", { name: "Campanha" }).click();
  await page.getByRole("option", { name: "Agendar Esta" }).click();
  await typeDate(page, dialog, "Data e hora de início", `15${mm}${yyyy}1030`);
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Agendamento salvo")).toBeVisible();
  // 10:30 in São Paulo (the company's zone) is 13:30Z
  const saved = await db().one<{ at: string }>("SELECT to_char(scheduled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS at FROM campaigns WHERE id = $1", [id]);
  expect(saved.at).toBe(`${yyyy}-${mm}-15 13:30`);

  await page.getByRole("button", { name: "Próximo mês" }).click();
  const event = page.getByTestId("calendar-event");
  await expect(event).toHaveCount(1);
  await expect(event).toContainText("10:30 Agendar Esta");
  await screenshot(page, { path: "/tmp/campaigns-calendar-1366-light.png", fullPage: true });

  await event.getByRole("button", { name: "Editar agendamento" }).click();
  await typeDate(page, dialog, "Data e hora de início", `15${mm}${yyyy}1445`);
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(event).toContainText("14:45 Agendar Esta");

  const openCalendar = async () => {
    await page.getByRole("button", { name: "Calendário" }).click();
    await page.getByRole("button", { name: "Próximo mês" }).click();
    await expect(page.getByTestId("calendar-event")).toHaveCount(1);
  };
  await themeShots(page, "campaigns-calendar", openCalendar, { fullPage: true });
  if (screenshotsWanted) await openCalendar();

  await page.getByTestId("calendar-event").getByRole("button", { name: "Excluir agendamento" }).click();
  await page.getByRole("dialog").getByRole("button", { name: /Confirmar|Sim|Excluir/ }).click();
  await expect(page.getByText("Agendamento excluído")).toBeVisible();
  await expect(page.getByTestId("calendar-event")).toHaveCount(0);
  expect((await db().one<{ scheduled_at: Date | null }>("SELECT scheduled_at FROM campaigns WHERE id = $1", [id])).scheduled_at).toBeNull();
});
