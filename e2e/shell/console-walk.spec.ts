import type { BrowserContext, Page } from "@playwright/test";
import { TEST_PASSWORD } from "../../apps/server/test/factories.js";
import { createTenant, db, expect, test } from "../support/fixtures.js";

/**
 * No console error in normal use, nothing allowed away (not even /favicon.ico): a login → use →
 * logout walk, the sender confirmation page, and the sandbox mailbox with a campaign's open pixel
 * opened on a host other than PUBLIC_URL (the browser tests' server says 127.0.0.1; the walk browses
 * on localhost, the same server).
 */

/** Every console error and page error of every tab of the context. */
function consoleErrors(context: BrowserContext): string[] {
  const errors: string[] = [];
  const watch = (page: Page) => {
    page.on("console", (msg) => {
      if (msg.type() === "error") errors.push(`${page.url()}: ${msg.text()} (${msg.location().url})`);
    });
    page.on("pageerror", (err) => errors.push(`${page.url()}: ${String(err)}`));
  };
  context.pages().forEach(watch);
  context.on("page", watch);
  return errors;
}

test("login → use → logout, the sender confirmation page and the mailbox on another host: no console errors", async ({ page, context }) => {
  test.setTimeout(120_000);
  const errors = consoleErrors(context);
  const publicUrl = process.env.E2E_BASE_URL!;
  const other = publicUrl.replace("127.0.0.1", "localhost");
  expect(other).not.toBe(publicUrl);
  const tenant = await createTenant();

  // login on the other host
  await page.goto(`${other}/login`);
  await page.locator('input[name="email"]').fill(tenant.admin.email);
  await page.locator('input[name="password"]').fill(TEST_PASSWORD);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL("**/tickets**");

  // use: a few pages, a sender added
  await page.goto(`${other}/contacts`);
  await expect(page.getByRole("heading", { name: "Contatos" })).toBeVisible();
  await page.goto(`${other}/campaigns`);
  await expect(page.getByRole("heading", { name: "Campanhas" })).toBeVisible();
  await page.goto(`${other}/email-senders`);
  await page.getByLabel("Endereço do remetente").fill("vendas@loja.test");
  await page.getByRole("button", { name: "Adicionar" }).click();
  await expect(page.getByTestId("sender-row").filter({ hasText: "vendas@loja.test" })).toContainText("Aguardando confirmação");

  // a campaign mail with its open pixel on PUBLIC_URL, as the dispatcher renders it
  await db().exec(
    `INSERT INTO email_sandbox_messages (company_id, from_address, to_address, subject, html)
     VALUES ($1, 'vendas@loja.test', 'ana@cliente.test', 'Oferta para Ana', $2)`,
    [tenant.companyId, `<h1>Olá Ana</h1><p>Temos novidades.</p><img src="${publicUrl}/t/o/pixel-de-teste.gif" width="1" height="1" alt="" style="border:0">`],
  );
  await page.goto(`${other}/email-sandbox`);
  await page.getByTestId("sandbox-mail").filter({ hasText: "Oferta para Ana" }).click();
  const mail = page.frameLocator('[data-testid="mail-frame"]');
  await expect(mail.getByRole("heading", { name: "Olá Ana" })).toBeVisible();
  // the pixel loaded (naturalWidth 1), not blocked by the app's own policy
  await expect.poll(() => mail.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);

  // the sender confirmation page, opened from its mail
  await page.getByTestId("sandbox-mail").filter({ hasText: "Confirme o remetente de e-mail" }).click();
  const confirmation = page.frameLocator('[data-testid="mail-frame"]');
  const [verifyTab] = await Promise.all([context.waitForEvent("page"), confirmation.getByRole("link", { name: "Confirmar remetente" }).click()]);
  await verifyTab.getByRole("button", { name: "Confirmar remetente" }).click();
  await expect(verifyTab.getByRole("heading", { name: "Remetente confirmado" })).toBeVisible();
  // the browser asks for the icon on its own, after the page: a moment to report a failure (an absence has no event to wait for)
  await verifyTab.waitForTimeout(1500);
  await verifyTab.close();

  // logout
  await page.getByRole("button", { name: "Minha conta" }).click();
  await page.getByRole("menuitem", { name: "Sair" }).click();
  await expect(page).toHaveURL(/\/login$/);
  // the socket's close and any refresh it set off come after the page changed: a moment to report them
  await page.waitForTimeout(1500);
  expect(errors).toEqual([]);
});
