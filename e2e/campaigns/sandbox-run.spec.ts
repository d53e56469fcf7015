import type { Page } from "@playwright/test";
import { buildQueue, createTenant, db, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";
import { expectEvery } from "../../apps/server/test/expect-every.js";

async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option }).click();
}

// Issue 14's whole story on `npm start` alone: the test business, a cost center, a CSV, the summary,
// start, and the counters moving live to Finalizada, with the messages on the sandbox phone.
test("a supervisor runs a template campaign on the sandbox business and watches it finish live", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const tenant = await createTenant();
  await buildQueue(db(), tenant.companyId, { name: "Atendimento" });

  // the administrator creates the test business from the numbers page
  await login(page, tenant.admin.email);
  await page.goto("/connectionsMeta");
  await page.getByRole("button", { name: "Contas (BM)" }).click();
  await page.getByRole("button", { name: "Criar BM de teste" }).click();
  await expect(page.getByText("BM de teste (sandbox) pronta: 2 números e 5 templates.")).toBeVisible();
  // no simulated failures, so the figures below are exact
  const failures = page.getByTestId("business-row").filter({ hasText: "BM de teste (sandbox)" }).getByRole("textbox", { name: "Falha simulada" });
  await failures.fill("0");
  await failures.press("Enter");
  await expect(page.getByText("Taxa de falha da BM de teste salva.")).toBeVisible();

  // the supervisor: a cost center, then the campaign
  const other = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, locale: "pt-BR", viewport: { width: 1366, height: 900 } });
  const sup = await other.newPage();
  await login(sup, tenant.supervisor.email);
  await sup.goto("/cost-centers");
  await sup.getByRole("button", { name: "Adicionar centro de custo" }).click();
  await sup.getByRole("dialog").getByLabel("Nome").fill("Marketing");
  await sup.getByRole("dialog").getByRole("button", { name: "Salvar" }).click();
  await expect(sup.getByTestId("cost-center-row")).toHaveCount(1);

  await sup.goto("/new-campaign");
  await expect(sup.getByTestId("form-loading")).toBeHidden();
  const lines = ["telefone;cpf;email", ...Array.from({ length: 12 }, (_, i) => `1194${String(1000000 + i)};${i};c${i}@x.com`)];
  await sup.getByTestId("campaign-file").setInputFiles({ name: "clientes.csv", mimeType: "text/csv", buffer: Buffer.from(lines.join("\n")) });
  await sup.getByLabel("Título da campanha").fill("Novidades de dezembro");
  await choose(sup, "Centro de custo", "Marketing");
  await choose(sup, "BM", /BM de teste/);
  await choose(sup, "Templates", /novidades_loja/);
  await sup.keyboard.press("Escape");
  await choose(sup, "Fila", "Atendimento");
  await sup.getByRole("button", { name: "Revisar campanha" }).click();
  const summary = sup.getByRole("dialog", { name: "Resumo da Campanha" });
  await expect(summary.getByTestId("summary-messages")).toHaveText("12");
  await expect(summary.getByTestId("summary-output")).toHaveAttribute("data-over", "false");
  await summary.getByRole("button", { name: "Confirmar" }).click();

  await expect(sup).toHaveURL(/\/campaigns$/);
  const row = sup.getByTestId("campaign-row").filter({ hasText: "Novidades de dezembro" });
  await expect(row.getByTestId("campaign-status")).toHaveText("Ativa", { timeout: 30_000 });
  await row.getByRole("button", { name: "Iniciar" }).click();
  // live, without reloading: sending, then finished with every message delivered
  await expect(row.getByTestId("campaign-status")).toHaveText(/Em Disparo|Finalizada/, { timeout: 15_000 });
  await expect(row.getByTestId("campaign-status")).toHaveText("Finalizada", { timeout: 60_000 });
  await expect(row.getByTestId("delivery-percent")).toHaveText("100,00%", { timeout: 30_000 });
  await screenshot(sup, { path: "/tmp/campaigns-sandbox-finished.png" });

  const stored = await db().one<{ total: number; sent: number; states: string[] }>(
    `SELECT c.count_total AS total, c.count_sent AS sent, array_agg(DISTINCT r.state ORDER BY r.state) AS states
       FROM campaigns c JOIN campaign_recipients r ON r.campaign_id = c.id
      WHERE c.company_id = $1 AND c.name = 'Novidades de dezembro' GROUP BY c.company_id, c.id`,
    [tenant.companyId],
  );
  expect(stored.total).toBe(12);
  expect(stored.sent).toBe(12);
  expectEvery(stored.states, (s) => s === "delivered" || s === "read");
  // the template text reached the sandbox phones, once per recipient
  const phone = await db().one<{ n: number; people: number }>(
    `SELECT count(*)::int AS n, count(DISTINCT number)::int AS people FROM sandbox_messages
      WHERE company_id = $1 AND direction = 'outbound'`,
    [tenant.companyId],
  );
  expect(phone).toEqual({ n: 12, people: 12 });
  await other.close();
});
