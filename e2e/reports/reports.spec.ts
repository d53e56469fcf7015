import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { buildQueue, createTenant, db, expect, login, test, type Tenant } from "../support/fixtures.js";
import { watchConsole } from "../sandbox/helpers.js";
import { screenshot } from "../support/screenshots.js";
import { expectNoSidewaysScroll } from "../support/layout.js";

/**
 * Reports against seeded cycles in 10-12 March 2026 (São Paulo, the company's zone):
 *   t1 closed, Vendas, Vip, Ana:   queued 10 09:00, first answer 09:02 (2 min), finished 09:30 (30 min), rated 5
 *   t2 closed, no queue, Ulisses:  queued 11 10:00, first answer 10:10 (10 min), finished 11:00 (60 min), rated 2
 *   t3 pending, Vendas:            queued 12 16:00
 * Figures: 3 created, 2 resolved, first response median 6 min, resolution median 45 min, CSAT 3,50 (50,0%), written the Brazilian way.
 */
async function seed(t: Tenant): Promise<{ vendas: number; uuids: string[] }> {
  const sql = db();
  const vendas = await buildQueue(sql, t.companyId, { name: "Vendas" });
  const vip = (await sql.one<{ id: number }>("INSERT INTO tags (company_id, name, color) VALUES ($1, 'Vip', '#d32f2f') RETURNING id", [t.companyId])).id;
  const uuids: string[] = [];
  let n = 0;
  const ticket = async (status: string, queue: number | null, tags: number[]) => {
    const contact = await sql.one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, $2, $3) RETURNING id", [
      t.companyId,
      `Cliente ${++n}`,
      `55119${t.companyId}${String(n).padStart(4, "0")}`.slice(0, 13),
    ]);
    const row = await sql.one<{ id: number; uuid: string }>(
      "INSERT INTO tickets (company_id, contact_id, status, queue_id) VALUES ($1, $2, $3, $4) RETURNING id, uuid::text AS uuid",
      [t.companyId, contact.id, status, queue],
    );
    await sql.exec("DELETE FROM ticket_traking WHERE ticket_id = $1", [row.id]);
    for (const tg of tags) await sql.exec("INSERT INTO ticket_tags (company_id, ticket_id, tag_id) VALUES ($1, $2, $3)", [t.companyId, row.id, tg]);
    uuids.push(row.uuid);
    return row.id;
  };
  const at = (day: string, time: string | null) => (time ? `2026-03-${day}T${time}:00-03:00` : null);
  const cycle = (id: number, user: number | null, queue: number | null, day: string, queued: string, first: string | null, finished: string | null, rating: number | null) =>
    sql.exec(
      `INSERT INTO ticket_traking (company_id, ticket_id, user_id, queue_id, queued_at, first_response_at, finished_at, rated_at, rating)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8)`,
      [t.companyId, id, user, queue, at(day, queued), at(day, first), at(day, finished), rating],
    );
  await cycle(await ticket("closed", vendas, [vip]), t.admin.id, vendas, "10", "09:00", "09:02", "09:30", 5);
  await cycle(await ticket("closed", null, []), t.user.id, null, "11", "10:00", "10:10", "11:00", 2);
  await cycle(await ticket("pending", vendas, []), null, vendas, "12", "16:00", null, null, null);
  return { vendas, uuids };
}

const figure = (page: Page, key: string) => page.getByTestId(`card-${key}`).getByTestId("figure");

async function choose(page: Page, testId: string, option: string): Promise<void> {
  await page.getByTestId(testId).getByRole("combobox").click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

test("reports: figures, chart, filters in the URL, drill-down to a ticket and CSV export", async ({ page }) => {
  test.setTimeout(120_000);
  const t = await createTenant();
  const { vendas, uuids } = await seed(t);
  await page.emulateMedia({ reducedMotion: "reduce" });
  const consoleErrors = watchConsole(page);
  await login(page, t.supervisor.email);
  await page.goto("/reports?from=2026-03-10&to=2026-03-12");

  await expect(figure(page, "created")).toHaveText("3");
  await expect(figure(page, "resolved")).toHaveText("2");
  await expect(figure(page, "firstResponse")).toHaveText("6 min");
  await expect(figure(page, "resolution")).toHaveText("45 min");
  await expect(figure(page, "csat")).toHaveText("3,50");
  await expect(page.getByTestId("card-csat")).toContainText("50,0% satisfeitos");
  await expect(page.getByTestId("report-range")).toHaveText("De 10/03/2026 a 12/03/2026");

  // the chart: three days, created and resolved
  const chart = page.getByTestId("volume-chart");
  await expect(chart.locator(".MuiBarChart-element")).toHaveCount(6);
  await expect(chart.getByText("11/03")).toBeVisible();

  // breakdown per agent
  const ana = page.getByTestId("breakdown-row").filter({ hasText: "Ana Admin" });
  await expect(ana.locator("td").nth(1)).toHaveText("1");
  await expect(ana.locator("td").nth(3)).toHaveText("2 min");
  await page.setViewportSize({ width: 1366, height: 900 });
  await screenshot(page, { path: "/tmp/reports-1366.png", fullPage: true });

  // a filter goes to the URL and survives a reload
  await choose(page, "report-filter-queue", "Vendas");
  await expect(page).toHaveURL(new RegExp(`queue=${vendas}`));
  await expect(figure(page, "created")).toHaveText("2");
  await page.reload();
  await expect(figure(page, "created")).toHaveText("2");
  await expect(figure(page, "resolved")).toHaveText("1");
  await choose(page, "report-filter-queue", "Todos");
  await expect(figure(page, "created")).toHaveText("3");

  // drill-down: the tickets created, exported as CSV, then one opened
  await page.getByTestId("card-created").click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("report-ticket-row")).toHaveCount(3);
  await expect(dialog.getByTestId("report-list-total")).toHaveText("(3)");
  await expect(page.locator(".MuiDialog-container")).toHaveCSS("opacity", "1"); // faded in
  await screenshot(page, { path: "/tmp/reports-list-1366.png" });
  const download = page.waitForEvent("download");
  await dialog.getByTestId("report-export").click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("tickets-2026-03-10-2026-03-12.csv");
  const bytes = await readFile((await file.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.toString("utf8").slice(1).trim().split("\r\n");
  expect(lines[0]).toMatch(/^Ticket;Link;Contato;Número;Status;Fila;Atendente/);
  expect(lines.slice(1).map((l) => l.split(";")[2])).toEqual(["Cliente 3", "Cliente 2", "Cliente 1"]);
  await dialog.getByRole("button", { name: "Fechar" }).click();

  // CSAT answer 5 → the one ticket rated 5
  await page.getByRole("button", { name: "Nota 5" }).click();
  await expect(page.getByRole("dialog").getByTestId("report-ticket-row")).toHaveCount(1);
  await page.getByRole("dialog").getByTestId("report-ticket-link").click();
  await expect(page).toHaveURL(new RegExp(`/tickets/${uuids[0]}$`));

  // phone width: no horizontal scroll of the page
  await page.goto("/reports?from=2026-03-10&to=2026-03-12");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(figure(page, "created")).toHaveText("3");
  await expectNoSidewaysScroll(page, 390);
  await screenshot(page, { path: "/tmp/reports-390.png", fullPage: true });
  await page.getByTestId("breakdown-tab-queue").click();
  await page.getByTestId("breakdown-row").filter({ hasText: "Vendas" }).getByTestId("breakdown-created").click();
  await expect(page.getByRole("dialog").getByTestId("report-ticket-row")).toHaveCount(2);
  await expect(page.locator(".MuiDialog-container")).toHaveCSS("opacity", "1");
  await screenshot(page, { path: "/tmp/reports-list-390.png" });
  await page.getByRole("dialog").getByRole("button", { name: "Fechar" }).click();

  // dark theme
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.evaluate(() => localStorage.setItem("preferredTheme", "dark"));
  await page.reload();
  await expect(figure(page, "created")).toHaveText("3");
  await expect(chart.locator(".MuiBarChart-element")).toHaveCount(6);
  await screenshot(page, { path: "/tmp/reports-dark.png", fullPage: true });
  expect(consoleErrors.errors).toEqual([]);
});

test("an agent of profile user is kept off the reports", async ({ page }) => {
  const t = await createTenant();
  await login(page, t.user.email);
  await expect(page.getByRole("link", { name: "Relatórios" })).toHaveCount(0);
  await page.goto("/reports");
  await expect(page.getByTestId("card-created")).toHaveCount(0);
  await expect(page).not.toHaveURL(/\/reports/);
});
