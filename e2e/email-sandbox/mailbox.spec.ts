import { createTenant, E2E_ADMIN, expect, login, test } from "../support/fixtures.js";
import { expectNoSidewaysScroll } from "../support/layout.js";

/** The sandbox mailbox: mail sent without a company (a password reset code) is the platform's. */
test("the super admin sees the platform's mail marked in the sandbox mailbox, also at 390 px; a company's admin does not see it", async ({ page, request }) => {
  const t = await createTenant();
  const asked = await request.post(`/api/forgetpassword/${encodeURIComponent(t.admin.email)}`);
  expect(asked.status()).toBeLessThan(300);

  await login(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.goto("/email-sandbox");
  await page.getByPlaceholder("Filtrar por destinatário").fill(t.admin.email);
  const mail = page.getByTestId("sandbox-mail").filter({ hasText: "Código para redefinir sua senha" });
  await expect(mail).toHaveCount(1, { timeout: 15_000 });
  await expect(mail.getByText("Plataforma")).toBeVisible();

  // on a phone the list keeps to the screen: the mark and the paging stay in view
  await page.setViewportSize({ width: 390, height: 800 });
  await expectNoSidewaysScroll(page, 390);
  for (const inView of [mail.getByText("Plataforma"), page.getByRole("button", { name: "Próximo" })]) {
    await expect.poll(async () => {
      const box = await inView.boundingBox();
      return box ? box.x + box.width : Infinity;
    }).toBeLessThanOrEqual(390);
  }

  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page, t.admin.email);
  await page.goto("/email-sandbox");
  await expect(page.getByText("Nenhum e-mail na caixa de teste")).toBeVisible();
  await expect(page.getByTestId("sandbox-mail")).toHaveCount(0);
});
