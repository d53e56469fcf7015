import { createTenant, expect, login, test } from "../support/fixtures.js";
import { dialogShown, rowOf, seedConnection } from "./helpers.js";
import { screenshot } from "../support/screenshots.js";

test("a Baileys session paired by phone number shows the 8-character code with where to type it", async ({ page }) => {
  const t = await createTenant();
  // While PAIRING the session's code is stored where the QR code would be.
  await seedConnection(t.companyId, { name: "Por número", status: "PAIRING", provider: "baileys", qrcode: "ABCD1234" });
  await login(page, t.admin.email);
  await page.goto("/connections");
  await rowOf(page, "Por número").getByTestId("session-pairing").click();
  await dialogShown(page);
  await expect(page.getByTestId("pairing-code")).toHaveText("ABCD-1234");
  await expect(page.getByTestId("qr-help")).toContainText("WhatsApp > Aparelhos conectados > Conectar com número de telefone");
  await expect(page.getByTestId("qr-image")).toHaveCount(0);
  await screenshot(page, { path: "/tmp/connections-pairing-code.png" });
});

test("the QR dialog of a Baileys connection offers 'Conectar com número' and asks the server for a pairing code", async ({ page }) => {
  const t = await createTenant();
  const id = await seedConnection(t.companyId, { name: "Lendo QR", status: "qrcode", provider: "baileys", qrcode: "2@seeded-qr-code" });
  // No live WhatsApp here: the session request is answered in the browser and its body checked.
  const bodies: unknown[] = [];
  await page.route(`**/api/whatsappsession/${id}`, async (route) => {
    bodies.push(route.request().postDataJSON());
    await route.fulfill({ json: { id, status: "PAIRING", qrcode: "", pairingCode: "WXYZ9876" } });
  });
  await login(page, t.admin.email);
  await page.goto("/connections");
  await rowOf(page, "Lendo QR").getByTestId("session-qrcode").click();
  await dialogShown(page);
  await expect(page.getByTestId("qr-image")).toBeVisible();
  await page.getByTestId("pairing-by-number").click();
  await expect(page.getByTestId("pairing-form")).toBeVisible();
  await page.getByTestId("pairing-number").fill("+55 11 94444-3333");
  await expect(page.getByTestId("qr-help")).toHaveText("Informe o número do WhatsApp que será conectado, com DDI e DDD.");
  await expect(page.getByRole("button", { name: "Gerar código" })).toBeEnabled();
  await page.waitForTimeout(400); // the button's colour transition, for the screenshot
  await screenshot(page, { path: "/tmp/connections-pairing-form.png" });
  await page.getByRole("button", { name: "Gerar código" }).click();
  await expect.poll(() => bodies).toEqual([{ phoneNumber: "+55 11 94444-3333" }]);
  await expect(page.getByTestId("pairing-form")).toBeHidden();
});
