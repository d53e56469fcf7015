import type { Page } from "@playwright/test";
import { createTenant, db, expect, login, test, type Tenant } from "../support/fixtures.js";
import { watchConsole } from "../sandbox/helpers.js";
import { screenshot } from "../support/screenshots.js";
import { expectNoSidewaysScroll } from "../support/layout.js";

/**
 * The dashboard against seeded cycles (times relative to an anchor: now, or 7 minutes into the
 * company's current hour when the hour is younger than that, so the recent cycles fall in one hour
 * of today and in the month's default range whenever the test runs, midnight included; one cycle
 * 45 days back falls only in the 60-day period):
 *   t1 closed, Vip:    queued −6 min, accepted −4 min, finished −1 min (wait 2, support 3), by Ana
 *   t2 pending, Suporte: queued −5 min
 *   t3 open:           queued −6 min, accepted −2 min (wait 4), by Ulisses, started by him (ativo)
 *   t4 closed (old):   45 days ago, accepted at once and finished 7 minutes later, by Ana
 * Contacts: three created now, one 45 days ago.
 */
async function seed(t: Tenant): Promise<void> {
  const sql = db();
  const { anchor } = await sql.one<{ anchor: Date }>(
    `SELECT greatest(now(), (date_trunc('hour', now() AT TIME ZONE time_zone) + interval '7 minutes') AT TIME ZONE time_zone) AS anchor
       FROM companies WHERE id = $1`,
    [t.companyId],
  );
  const tag = (name: string, color: string) =>
    sql.one<{ id: number }>("INSERT INTO tags (company_id, name, color) VALUES ($1, $2, $3) RETURNING id", [t.companyId, name, color]).then((r) => r.id);
  const vip = await tag("Vip", "#d32f2f");
  const suporte = await tag("Suporte", "#1976d2");
  let n = 0;
  const contact = (ago: string) =>
    sql
      .one<{ id: number }>("INSERT INTO contacts (company_id, name, number, created_at) VALUES ($1, $2, $3, $5::timestamptz - $4::interval) RETURNING id", [
        t.companyId,
        `Cliente ${++n}`,
        `55119${t.companyId}${String(n).padStart(4, "0")}`.slice(0, 13),
        ago,
        anchor,
      ])
      .then((r) => r.id);
  const ticket = async (contactId: number, status: string, ativo: boolean, tags: number[]) => {
    const { id } = await sql.one<{ id: number }>("INSERT INTO tickets (company_id, contact_id, status, origin_from_me) VALUES ($1, $2, $3, $4) RETURNING id", [
      t.companyId,
      contactId,
      status,
      ativo,
    ]);
    await sql.exec("DELETE FROM ticket_traking WHERE ticket_id = $1", [id]);
    for (const tg of tags) await sql.exec("INSERT INTO ticket_tags (company_id, ticket_id, tag_id) VALUES ($1, $2, $3)", [t.companyId, id, tg]);
    return id;
  };
  const cycle = (ticketId: number, user: number | null, ativo: boolean, queued: string, started: string | null, finished: string | null) =>
    sql.exec(
      `INSERT INTO ticket_traking (company_id, ticket_id, user_id, origin_from_me, queued_at, started_at, finished_at)
       VALUES ($1, $2, $3, $4, $8::timestamptz - $5::interval, $8::timestamptz - $6::interval, $8::timestamptz - $7::interval)`,
      [t.companyId, ticketId, user, ativo, queued, started, finished, anchor],
    );
  const t1 = await ticket(await contact("1 minute"), "closed", false, [vip]);
  await cycle(t1, t.admin.id, false, "6 minutes", "4 minutes", "1 minute");
  const t2 = await ticket(await contact("1 minute"), "pending", false, [suporte]);
  await cycle(t2, null, false, "5 minutes", null, null);
  const t3 = await ticket(await contact("1 minute"), "open", true, []);
  await cycle(t3, t.user.id, true, "6 minutes", "2 minutes", null);
  const t4 = await ticket(await contact("45 days"), "closed", false, []);
  await cycle(t4, t.admin.id, false, "45 days", "45 days", "45 days -7 minutes");
}

async function cards(page: Page): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const key of ["supportPending", "supportHappening", "supportFinished", "leads", "avgSupportTime", "avgWaitTime"]) {
    out[key] = (await page.getByTestId(`card-${key}`).getByTestId("card-value").innerText()).trim();
  }
  return out;
}

async function choose(page: Page, testId: string, option: string): Promise<void> {
  await page.getByTestId(testId).getByRole("combobox").click();
  await page.getByRole("option", { name: option, exact: true }).click();
  await page.keyboard.press("Escape");
}

test("the dashboard counts the seeded tickets, filters by period and tag, and charts today", async ({ page }) => {
  test.setTimeout(120_000);
  const t = await createTenant();
  await seed(t);
  // the chart's bars grow in; without motion the screenshots show them whole
  await page.emulateMedia({ reducedMotion: "reduce" });
  const consoleErrors = watchConsole(page);
  await login(page, t.admin.email);

  // the first load comes a second after the page opens, for the month so far
  const opened = Date.now();
  const first = page.waitForRequest((r) => r.url().includes("/api/dashboard"));
  await page.goto("/");
  const request = await first;
  expect(Date.now() - opened).toBeGreaterThanOrEqual(900);
  expect(request.url()).toMatch(/date_from=\d{4}-\d{2}-01&date_to=\d{4}-\d{2}-\d{2}/);
  await expect(page.getByTestId("card-supportPending").getByTestId("card-value")).toHaveText("1");
  expect(await cards(page)).toEqual({
    supportPending: "1",
    supportHappening: "1",
    supportFinished: "1",
    leads: "3",
    avgSupportTime: "3 min",
    avgWaitTime: "3 min",
  });
  const ana = page.getByTestId("attendant-row").filter({ hasText: "Ana Admin" });
  await expect(ana.locator("td").nth(2)).toHaveText("1"); // total
  await expect(ana.locator("[data-online]")).toHaveAttribute("data-online", "true");
  const ulisses = page.getByTestId("attendant-row").filter({ hasText: "Ulisses Agente" });
  await expect(ulisses.locator("td").nth(3)).toHaveText("1"); // ativo
  await expect(ulisses.locator("[data-online]")).toHaveAttribute("data-online", "false");

  // the chart: 24 hourly slots and at least one bar for today's tickets
  const chart = page.getByTestId("hourly-chart");
  await expect(chart.locator(".MuiBarChart-element")).toHaveCount(24);
  await expect(chart.locator(".MuiChartsAxis-directionX").getByText("00h")).toBeVisible();
  // the three tickets of the last minutes stand in one bar, of height 3 on the y axis' scale
  const heights = await chart.locator(".MuiBarChart-element").evaluateAll((bars) => bars.map((b) => Math.round(b.getBoundingClientRect().height)));
  expect(heights.filter((h) => h > 0)).toHaveLength(1);
  await page.setViewportSize({ width: 1366, height: 900 });
  await screenshot(page, { path: "/tmp/dash-1366.png", fullPage: true });

  // by period: no period → 'Parametrize o filtro'; 60 days takes in the old ticket and contact
  await choose(page, "filter-type", "Filtro por período");
  await expect(page.getByTestId("filter-needed")).toHaveText("Parametrize o filtro");
  await expect(page.getByRole("button", { name: "Filtrar" })).toBeDisabled();
  await choose(page, "filter-period", "Últimos 60 dias");
  await expect(page.getByTestId("filter-needed")).toHaveCount(0);
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page.getByTestId("card-supportFinished").getByTestId("card-value")).toHaveText("2");
  expect(await cards(page)).toMatchObject({ leads: "4", avgSupportTime: "5 min" });
  await choose(page, "filter-period", "Últimos 3 dias");
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page.getByTestId("card-supportFinished").getByTestId("card-value")).toHaveText("1");

  // by tag: only Vip's ticket
  await choose(page, "filter-tags", "Vip");
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page.getByTestId("card-supportPending").getByTestId("card-value")).toHaveText("0");
  expect(await cards(page)).toEqual({
    supportPending: "0",
    supportHappening: "0",
    supportFinished: "1",
    leads: "1",
    avgSupportTime: "3 min",
    avgWaitTime: "2 min",
  });
  // today's chart follows the tag too: t1 alone
  await expect(page.getByTestId("hourly-chart").locator(".MuiChartsAxis-directionY").getByText("1", { exact: true })).toBeVisible();

  // phone width: the page fits without horizontal scrolling of the whole page
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("card-leads")).toBeVisible();
  await expectNoSidewaysScroll(page, 390);
  await screenshot(page, { path: "/tmp/dash-390.png", fullPage: true });

  // dark theme
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.evaluate(() => localStorage.setItem("preferredTheme", "dark"));
  await page.reload();
  await expect(page.getByTestId("card-supportPending").getByTestId("card-value")).toHaveText("1");
  const background = await page.getByTestId("card-leads").evaluate((el) => getComputedStyle(el).backgroundColor);
  const [r, g, b] = (/\d+/g.exec(background) ? background.match(/\d+/g)! : []).map(Number);
  expect(Math.max(r!, g!, b!)).toBeLessThan(80);
  await screenshot(page, { path: "/tmp/dash-dark.png", fullPage: true });
  expect(consoleErrors.errors).toEqual([]);
});

test("a supervisor is kept off the dashboard", async ({ page }) => {
  const t = await createTenant();
  await login(page, t.supervisor.email);
  await page.goto("/");
  await expect(page.getByTestId("card-leads")).toHaveCount(0);
  await expect(page).not.toHaveURL(/\/$/);
});
