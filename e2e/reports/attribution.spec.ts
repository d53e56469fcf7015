import type { Page } from "@playwright/test";
import { buildQueue, buildUser, createTenant, db, expect, login, test, type Tenant } from "../support/fixtures.js";
import { watchConsole } from "../sandbox/helpers.js";
import { screenshot } from "../support/screenshots.js";

/**
 * Each interval of work credited to who held it (migration 0812), as the screens show it. The holdings
 * are written as the tracking triggers write them (reports/attribution.test.ts drives the same through
 * the routes), minutes before an anchor (now, or 40 minutes into the company's day when the day is
 * younger: every instant falls today, in the month and in the last 7 days):
 *   T1 (closed): Ana in Vendas  queued −30, accepted −28, first answer −26, transferred −20
 *                Bruna in Suporte (transfer)  accepted −20, first answer −18, closed −10
 *   T2 (open):   Ana in Vendas  queued −16, accepted −14, first answer −13, closed −10; reopened −5 by Ana
 * Ana wrote 1 message in T1, Bruna 3.
 * Reports: created 2 (not 3: the reopening is not a new ticket), resolved 2, first answers 4, 2 (Bruna,
 * from when T1 reached her) and 3 min (median 3 min), resolution 20 (from T1's creation) and 6 min (median 13 min); Bruna: created 0,
 * resolved 1, first answer 2 min, resolution 20 min. Dashboard: finished 2, handling (8 + 10 + 4) / 3
 * = 7 min, wait 2 min; Ana 3 intervals (6 min each on average), Bruna 1 (10 min).
 */
async function seed(t: Tenant): Promise<{ bruna: string }> {
  const sql = db();
  const { anchor } = await sql.one<{ anchor: Date }>(
    `SELECT greatest(now(), (date_trunc('day', now() AT TIME ZONE time_zone) + interval '40 minutes') AT TIME ZONE time_zone) AS anchor
       FROM companies WHERE id = $1`,
    [t.companyId],
  );
  const vendas = await buildQueue(sql, t.companyId, { name: "Vendas" });
  const suporte = await buildQueue(sql, t.companyId, { name: "Suporte" });
  const bruna = await buildUser(sql, t.companyId, { profile: "user", name: "Bruna Suporte" });
  let n = 0;
  const ticket = async (status: string) => {
    const contact = await sql.one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, $2, $3) RETURNING id", [
      t.companyId,
      `Cliente ${++n}`,
      `55119${t.companyId}${String(n).padStart(4, "0")}`.slice(0, 13),
    ]);
    const row = await sql.one<{ id: number }>("INSERT INTO tickets (company_id, contact_id, status) VALUES ($1, $2, $3) RETURNING id", [
      t.companyId,
      contact.id,
      status,
    ]);
    await sql.exec("DELETE FROM ticket_traking WHERE ticket_id = $1", [row.id]);
    return row.id;
  };
  const min = (m: number | null) => (m === null ? null : new Date(anchor.getTime() - m * 60_000));
  const holding = (
    ticketId: number,
    h: { user: number; queue: number; opened: 0 | 1 | 2; cycle?: number; queued: number; started: number; first?: number; ended?: number; finished?: number; messages?: number },
  ) =>
    sql.exec(
      `INSERT INTO ticket_traking (company_id, ticket_id, user_id, queue_id, opened, cycle_queued_at, queued_at, started_at, first_response_at, ended_at, finished_at, messages)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        t.companyId, ticketId, h.user, h.queue, h.opened, min(h.cycle ?? h.queued), min(h.queued), min(h.started),
        min(h.first ?? null), min(h.ended ?? null), min(h.finished ?? null), h.messages ?? 0,
      ],
    );
  const t1 = await ticket("closed");
  await holding(t1, { user: t.admin.id, queue: vendas, opened: 0, queued: 30, started: 28, first: 26, ended: 20, messages: 1 });
  await holding(t1, { user: bruna.id, queue: suporte, opened: 2, cycle: 30, queued: 20, started: 20, first: 18, finished: 10, messages: 3 });
  const t2 = await ticket("open");
  await holding(t2, { user: t.admin.id, queue: vendas, opened: 0, queued: 16, started: 14, first: 13, finished: 10 });
  await holding(t2, { user: t.admin.id, queue: vendas, opened: 1, queued: 5, started: 5 });
  return { bruna: bruna.email };
}

const figure = (page: Page, key: string) => page.getByTestId(`card-${key}`).getByTestId("figure");

test("reports and the dashboard credit each interval to the agent and queue that held it", async ({ page }) => {
  test.setTimeout(120_000);
  const t = await createTenant();
  await seed(t);
  await page.emulateMedia({ reducedMotion: "reduce" });
  const consoleErrors = watchConsole(page);
  await login(page, t.admin.email);
  await page.setViewportSize({ width: 1366, height: 900 });

  await page.goto("/reports");
  await expect(figure(page, "created")).toHaveText("2");
  await expect(figure(page, "resolved")).toHaveText("2");
  await expect(figure(page, "firstResponse")).toHaveText("3 min");
  await expect(figure(page, "resolution")).toHaveText("13 min");
  const row = (name: string) => page.getByTestId("breakdown-row").filter({ hasText: name });
  await expect(row("Bruna Suporte").locator("td").nth(1)).toHaveText("0"); // created
  await expect(row("Bruna Suporte").locator("td").nth(2)).toHaveText("1"); // resolved
  await expect(row("Bruna Suporte").locator("td").nth(3)).toHaveText("2 min"); // her own first answer
  await expect(row("Bruna Suporte").locator("td").nth(4)).toHaveText("20 min"); // from the ticket's creation
  await expect(row("Ana Admin").locator("td").nth(1)).toHaveText("2");
  await expect(row("Ana Admin").locator("td").nth(2)).toHaveText("1");
  await page.getByTestId("breakdown-tab-queue").click();
  await expect(row("Vendas").locator("td").nth(1)).toHaveText("2");
  await expect(row("Suporte").locator("td").nth(1)).toHaveText("0");
  await expect(row("Suporte").locator("td").nth(2)).toHaveText("1");
  await screenshot(page, { path: "/tmp/reports-attribution-1366.png", fullPage: true });

  // the tickets created: each once, in the queue it was created in
  await page.getByTestId("card-created").click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("report-ticket-row")).toHaveCount(2);
  await expect(dialog.getByTestId("report-ticket-row").filter({ hasText: "Cliente 1" })).toContainText("Vendas");
  const t1Row = dialog.getByTestId("report-ticket-row").filter({ hasText: "Cliente 1" });
  await expect(t1Row).not.toContainText("Suporte");
  // Ana's interval of T1: her one message, 8 minutes with her (accepted −28, transferred −20)
  await expect(t1Row.getByTestId("report-ticket-messages")).toHaveText("1");
  await expect(t1Row.getByTestId("report-ticket-held")).toHaveText("8 min");
  await screenshot(page, { path: "/tmp/reports-attribution-list.png" });
  await dialog.getByRole("button", { name: "Fechar" }).click();
  // the tickets resolved: T1 under Bruna and Suporte, with her three messages and 10 minutes
  await page.getByTestId("card-resolved").click();
  const t1Closed = page.getByRole("dialog").getByTestId("report-ticket-row").filter({ hasText: "Cliente 1" });
  await expect(t1Closed).toContainText("Bruna Suporte");
  await expect(t1Closed).toContainText("Suporte");
  await expect(t1Closed.getByTestId("report-ticket-messages")).toHaveText("3");
  await expect(t1Closed.getByTestId("report-ticket-held")).toHaveText("10 min");
  await page.getByRole("dialog").getByRole("button", { name: "Fechar" }).click();

  await page.goto("/");
  await expect(page.getByTestId("card-supportFinished").getByTestId("card-value")).toHaveText("2");
  await expect(page.getByTestId("card-avgSupportTime").getByTestId("card-value")).toHaveText("7 min");
  await expect(page.getByTestId("card-avgWaitTime").getByTestId("card-value")).toHaveText("2 min");
  const attendant = (name: string) => page.getByTestId("attendant-row").filter({ hasText: name });
  await expect(attendant("Ana Admin").locator("td").nth(2)).toHaveText("3"); // T1, T2 and its reopening
  await expect(attendant("Ana Admin").locator("td").nth(5)).toHaveText("6 min");
  await expect(attendant("Bruna Suporte").locator("td").nth(2)).toHaveText("1");
  await expect(attendant("Bruna Suporte").locator("td").nth(5)).toHaveText("10 min");
  await screenshot(page, { path: "/tmp/dash-attribution-1366.png", fullPage: true });
  expect(consoleErrors.errors).toEqual([]);
});

test("online: the dashboard and the users page say the same", async ({ page }) => {
  const t = await createTenant();
  const sql = db();
  // Ulisses closed the app 2 minutes ago; Sergio's flag was left by a crashed process 15 minutes ago
  await sql.exec("UPDATE users SET online = false, last_seen_at = now() - interval '2 minutes' WHERE id = $1", [t.user.id]);
  await sql.exec("UPDATE users SET online = true, last_seen_at = now() - interval '15 minutes' WHERE id = $1", [t.supervisor.id]);
  await login(page, t.admin.email);
  await page.goto("/");
  const dot = (name: string) => page.getByTestId("attendant-row").filter({ hasText: name }).locator("[data-online]");
  await expect(dot("Ana Admin")).toHaveAttribute("data-online", "true");
  await expect(dot("Ulisses Agente")).toHaveAttribute("data-online", "false");
  await expect(dot("Sergio Supervisor")).toHaveAttribute("data-online", "false");
  await page.goto("/users");
  const chip = (name: string) => page.getByRole("row").filter({ hasText: name });
  await expect(chip("Ana Admin")).toContainText("Online");
  await expect(chip("Ulisses Agente")).toContainText("Offline");
  await expect(chip("Sergio Supervisor")).toContainText("Offline");
  await screenshot(page, { path: "/tmp/users-online-1366.png", fullPage: true });
});
