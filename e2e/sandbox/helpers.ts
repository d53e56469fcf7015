import type { BrowserContext, ConsoleMessage, Page } from "@playwright/test";
import { expect } from "../support/fixtures.js";

/**
 * Collects browser console errors and page errors; `allow` lists texts a test triggers on purpose
 * (for instance the 400 of a refused action, which Chromium logs as a failed resource).
 */
export function watchConsole(page: Page, allow: RegExp[] = []): { errors: string[]; allow(re: RegExp): void } {
  const errors: string[] = [];
  // The app has no favicon yet: the browser's own request for it is not an app error.
  const allowed = [/favicon\.ico/, ...allow];
  page.on("console", (msg: ConsoleMessage) => {
    if (msg.type() !== "error") return;
    const where = msg.location().url;
    const text = where ? `${msg.text()} (${where})` : msg.text();
    if (!allowed.some((re) => re.test(text))) errors.push(text);
  });
  page.on("pageerror", (err) => errors.push(String(err)));
  return { errors, allow: (re) => allowed.push(re) };
}

/** Adds a sandbox connection through the connections page; returns its id. The QR dialog opens. */
export async function addSandboxConnection(page: Page, name: string): Promise<number> {
  await page.goto("/connections");
  await page.getByTestId("add-connection").click();
  await page.getByTestId("connection-name").fill(name);
  await page.getByTestId("connection-save").click();
  await expect(page.getByText("Conexão salva com sucesso!")).toBeVisible();
  const row = page.getByTestId("connection-row").filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(page.getByTestId("qr-code").locator("svg")).toBeVisible();
  return Number(await row.getAttribute("data-connection-id"));
}

/** Opens the connection's phone page in a new tab of the same session and scans the QR code. */
export async function openPhoneAndScan(context: BrowserContext, whatsappId: number): Promise<Page> {
  const phone = await context.newPage();
  await phone.goto(`/sandbox/${whatsappId}`);
  await phone.getByTestId("scan-button").click();
  await expect(phone.getByTestId("phone-status")).toHaveText("online");
  return phone;
}

/** Writes as the customer from the phone page. */
export async function customerWrites(phone: Page, text: string): Promise<void> {
  await phone.getByTestId("phone-input").fill(text);
  await phone.getByTestId("phone-send").click();
  await expect(phone.getByTestId("phone-message").filter({ hasText: text }).last()).toBeVisible();
  // the box empties once the server has answered (the message stored, routed and its bots' jobs queued)
  await expect(phone.getByTestId("phone-input")).toHaveValue("");
}

/** A customer's message straight through the sandbox API, with the logged-in user's token. */
export async function inbound(
  page: Page,
  whatsappId: number,
  data: { number: string; name: string; body?: string; mediaType?: string; mediaBase64?: string; mediaName?: string; mimetype?: string },
): Promise<void> {
  const token = await page.evaluate(() => localStorage.getItem("token"));
  const res = await page.request.post(`/api/sandbox/${whatsappId}/inbound`, { headers: { authorization: `Bearer ${token}` }, data });
  expect(res.ok()).toBeTruthy();
}
