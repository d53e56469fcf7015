import type { Locator, Page } from "@playwright/test";
import { createTenant, expect, login, test } from "../support/fixtures.js";
import { addSandboxConnection, inbound, openPhoneAndScan, watchConsole } from "../sandbox/helpers.js";
import { solidPng } from "./png.js";
import { screenshot } from "../support/screenshots.js";

/** Pixels left below the view: 0 when the conversation shows its latest message. */
const gapBelow = (list: Locator) => list.evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight));
/** Where a message sits relative to the top of the conversation's view. */
const topInView = (list: Locator, id: string) =>
  list.evaluate((el, messageId) => {
    const node = el.querySelector(`[data-message-id="${messageId}"]`);
    return node ? Math.round(node.getBoundingClientRect().top - el.getBoundingClientRect().top) : null;
  }, id);

/** The message whose text is exactly `body` (a bubble's own text also holds its time: "…1117:35"). */
const messageWithBody = (list: Locator, body: string) =>
  list.getByTestId("message").filter({ has: list.page().getByTestId("message-body").filter({ hasText: new RegExp(`^${body}$`) }) });

async function openTicket(page: Page, name: string) {
  await page.goto("/tickets");
  await page.getByTestId("tab-pending").click();
  await page.getByTestId("list-pending").getByTestId("ticket-item").filter({ hasText: name }).click();
  await expect(page.getByTestId("ticket-view")).toBeVisible();
}

test("a conversation with images loading late opens at its very bottom, at 1366 px and at 390 px", async ({ page, context }) => {
  test.setTimeout(120_000);
  const t = await createTenant();
  await login(page, t.admin.email);
  const consoleErrors = watchConsole(page);
  const whatsappId = await addSandboxConnection(page, "Sandbox Fotos");
  (await openPhoneAndScan(context, whatsappId)).close();
  const who = { number: "5511944440001", name: "Bia Fotos" };
  const colours: [number, number, number][] = [
    [220, 60, 60],
    [60, 160, 80],
    [60, 90, 200],
    [200, 160, 40],
    [140, 60, 180],
    [40, 170, 170],
  ];
  for (const [i, colour] of colours.entries()) {
    await inbound(page, whatsappId, { ...who, body: `Foto ${i + 1} a seguir` });
    const png = solidPng(300, 420, colour).toString("base64");
    await inbound(page, whatsappId, { ...who, mediaType: "image", mediaBase64: png, mediaName: `foto-${i + 1}.png`, mimetype: "image/png" });
  }
  await inbound(page, whatsappId, { ...who, body: "Última mensagem da conversa" });

  // The files arrive one by one, well after the texts.
  let delay = 300;
  await page.route("**/api/messages/media/**", async (route) => {
    delay += 250;
    await new Promise((r) => setTimeout(r, delay));
    await route.continue();
  });

  for (const [width, height] of [
    [1366, 768],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    delay = 300;
    await openTicket(page, "Bia Fotos");
    const list = page.getByTestId("messages-list");
    const images = list.getByTestId("message-image");
    await expect(images).toHaveCount(6, { timeout: 20_000 });
    await expect.poll(() => images.evaluateAll((els) => els.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalHeight > 0))).toBe(true);
    await expect.poll(() => gapBelow(list)).toBeLessThanOrEqual(1);
    await expect(list.getByTestId("message").filter({ hasText: "Última mensagem da conversa" })).toBeInViewport();
    await expect(page.getByTestId("jump-to-latest")).toHaveCount(0);
    await screenshot(page, { path: `/tmp/conversation-images-${width}.png`, animations: "disabled" });
  }
  expect(consoleErrors.errors).toEqual([]);
});

test("older pages load above without moving the message being read; new messages while scrolled up wait behind the jump button", async ({ page, context }) => {
  test.setTimeout(120_000);
  const t = await createTenant();
  await login(page, t.admin.email);
  const consoleErrors = watchConsole(page);
  const whatsappId = await addSandboxConnection(page, "Sandbox Longa");
  (await openPhoneAndScan(context, whatsappId)).close();
  const who = { number: "5511944440002", name: "Caio Longo" };
  for (let i = 1; i <= 30; i++) await inbound(page, whatsappId, { ...who, body: `Conversa longa ${i}` });

  await page.setViewportSize({ width: 1366, height: 768 });
  await openTicket(page, "Caio Longo");
  const list = page.getByTestId("messages-list");
  const messages = list.getByTestId("message");
  await expect(messages).toHaveCount(20);
  await expect.poll(() => gapBelow(list)).toBeLessThanOrEqual(1);

  // Scrolled to the top: the oldest loaded message stays where it was while 10 older ones come in above it.
  const oldest = messageWithBody(list, "Conversa longa 11");
  const id = (await oldest.getAttribute("data-message-id")) ?? "";
  await list.evaluate((el) => el.scrollTo(0, 0));
  const before = await topInView(list, id);
  await expect(messages).toHaveCount(30);
  await page.waitForTimeout(300);
  expect(await topInView(list, id)).toBe(before);
  expect(await list.evaluate((el) => el.scrollTop)).toBeGreaterThan(100);
  await expect(messageWithBody(list, "Conversa longa 1")).toHaveCount(1);
  await expect(messageWithBody(list, "Conversa longa 1")).not.toBeInViewport();

  // Reading there, three messages arrive: nothing moves, the button counts them.
  const reading = await topInView(list, id);
  await expect(page.getByTestId("jump-to-latest")).toBeVisible();
  for (let i = 31; i <= 33; i++) await inbound(page, whatsappId, { ...who, body: `Conversa longa ${i}` });
  await expect(messages).toHaveCount(33);
  await expect(page.getByTestId("jump-count")).toHaveText("3");
  expect(await topInView(list, id)).toBe(reading);
  await screenshot(page, { path: "/tmp/conversation-jump-1366.png", animations: "disabled" });

  await page.getByTestId("jump-to-latest").click();
  await expect.poll(() => gapBelow(list)).toBeLessThanOrEqual(1);
  await expect(messages.filter({ hasText: "Conversa longa 33" })).toBeInViewport();
  await expect(page.getByTestId("jump-to-latest")).toHaveCount(0);

  // At phone width the button works the same.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => gapBelow(list)).toBeLessThanOrEqual(1);
  await list.evaluate((el) => el.scrollBy(0, -600));
  await inbound(page, whatsappId, { ...who, body: "Conversa longa 34" });
  await expect(page.getByTestId("jump-count")).toHaveText("1");
  await screenshot(page, { path: "/tmp/conversation-jump-390.png", animations: "disabled" });
  await page.getByTestId("jump-to-latest").click();
  await expect(messages.filter({ hasText: "Conversa longa 34" })).toBeInViewport();
  expect(consoleErrors.errors).toEqual([]);
});
