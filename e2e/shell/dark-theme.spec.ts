import type { Page } from "@playwright/test";
import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { addSandboxConnection, inbound, openPhoneAndScan } from "../sandbox/helpers.js";
import { screenshot } from "../support/screenshots.js";

/** Visible boxes larger than a chip painted (near) white: none belong in the dark theme. */
function whiteAreas(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>("body *")) {
      const box = el.getBoundingClientRect();
      if (box.width * box.height < 2500 || box.bottom < 0 || box.top > innerHeight) continue;
      if (el.closest("img, canvas, svg, .MuiTouchRipple-root")) continue;
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const m = /rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)/.exec(getComputedStyle(el).backgroundColor);
      if (!m || (m[4] !== undefined && Number(m[4]) < 0.5)) continue;
      if ([m[1], m[2], m[3]].every((c) => Number(c) > 230)) found.push(`${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 2).join(".")}`);
    }
    return found;
  });
}

test("the dark theme paints the workspace, lists, settings and dialogs dark; WhatsApp marks render as formatting", async ({ page, context }) => {
  test.setTimeout(120_000);
  const t = await createTenant();
  await db().exec("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Dora Escura', '5511977776666')", [t.companyId]);
  await login(page, t.admin.email);
  await page.evaluate(() => localStorage.setItem("preferredTheme", "dark"));
  const whatsappId = await addSandboxConnection(page, "Sandbox Noite");
  (await openPhoneAndScan(context, whatsappId)).close();
  await inbound(page, whatsappId, { number: "5511977775555", name: "Nina Noturna", body: "Boa noite! *Pedido* _123_ chegou?" });

  await page.goto("/tickets");
  await page.getByTestId("tab-pending").click();
  await page.getByTestId("list-pending").getByTestId("ticket-item").filter({ hasText: "Nina Noturna" }).click();
  await expect(page.getByTestId("ticket-view")).toBeVisible();
  // WhatsApp formatting is rendered, never shown raw: in the bubble and, without the marks, in the list
  const bubble = page.getByTestId("messages-list").getByTestId("message").filter({ hasText: "Boa noite!" });
  await expect(bubble.locator("strong")).toHaveText("Pedido");
  await expect(bubble.locator("em")).toHaveText("123");
  await expect(bubble).not.toContainText("*");
  await expect(page.getByTestId("list-pending").getByTestId("ticket-item").filter({ hasText: "Nina Noturna" })).toContainText("Boa noite! Pedido 123 chegou?");
  const checks: [string, () => Promise<void>][] = [
    ["workspace", async () => {}],
    ["contacts", () => page.goto("/contacts").then(() => expect(page.getByText("Dora Escura")).toBeVisible())],
    ["kanban", () => page.goto("/kanban").then(() => page.waitForLoadState("networkidle"))],
    ["settings", () => page.goto("/settings").then(() => expect(page.getByTestId("time-zone")).toBeVisible())],
    [
      "schedule-dialog",
      async () => {
        await page.goto("/schedules");
        await page.getByRole("button", { name: "Novo agendamento" }).click();
        await page.getByRole("dialog").getByRole("button", { name: /Escolha uma data/ }).click();
        const calendar = page.getByRole("grid");
        await expect(calendar).toBeVisible();
        // the popper has faded in
        await expect.poll(() => calendar.evaluate((el) => getComputedStyle(el.closest(".MuiPaper-root") ?? el).opacity)).toBe("1");
      },
    ],
  ];
  for (const [name, open] of checks) {
    await open();
    await screenshot(page, { path: `/tmp/dark-${name}.png` });
    expect(await whiteAreas(page), name).toEqual([]);
  }
});
