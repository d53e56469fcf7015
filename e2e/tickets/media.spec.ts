import { createTenant, expect, login, test } from "../support/fixtures.js";
import { addSandboxConnection, inbound, openPhoneAndScan, watchConsole } from "../sandbox/helpers.js";
import { screenshot } from "../support/screenshots.js";

// A 1x1 PNG.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

test("images, documents, locations and missed calls from the customer render in the conversation", async ({ page, context }) => {
  test.setTimeout(90_000);
  const t = await createTenant();
  await login(page, t.admin.email);
  const consoleErrors = watchConsole(page);
  const whatsappId = await addSandboxConnection(page, "Sandbox Mídia");
  const phone = await openPhoneAndScan(context, whatsappId);
  await phone.getByTestId("customer-number").fill("5511933332222");
  await phone.getByTestId("customer-name").fill("Ana Mídia");

  // An image attached on the phone page, with a caption.
  await phone.locator('input[type="file"]').setInputFiles({ name: "foto.png", mimeType: "image/png", buffer: Buffer.from(PNG, "base64") });
  await phone.getByTestId("phone-input").fill("Olha a foto");
  await phone.getByTestId("phone-send").click();
  const who = { number: "5511933332222", name: "Ana Mídia" };
  await inbound(page, whatsappId, { ...who, mediaType: "application", mediaBase64: Buffer.from("%PDF-1.4 test").toString("base64"), mediaName: "boleto.pdf", mimetype: "application/pdf" });
  await inbound(page, whatsappId, { ...who, mediaType: "locationMessage", body: `data:image/png;base64,${PNG}|https://maps.google.com/maps?q=-23.56,-46.65|Av. Paulista, 1000` });
  await inbound(page, whatsappId, { ...who, mediaType: "call_log", body: "Chamada de voz perdida" });

  await page.goto("/tickets");
  await page.getByTestId("tab-pending").click();
  await page.getByTestId("list-pending").getByTestId("ticket-item").filter({ hasText: "Ana Mídia" }).click();
  const view = page.getByTestId("ticket-view");
  await expect(view).toHaveAttribute("data-status", "pending");
  await expect(page.getByTestId("input-blocked")).toContainText("Aceite-o para responder");

  const image = view.getByTestId("message-image");
  await expect(image).toBeVisible();
  expect(await image.getAttribute("src")).toMatch(/^blob:/);
  await expect(view.getByTestId("message").filter({ hasText: "Olha a foto" })).toBeVisible();

  const doc = view.getByTestId("message").filter({ hasText: "boleto.pdf" });
  const download = page.waitForEvent("download");
  await doc.getByRole("button", { name: "Download" }).click();
  expect((await download).suggestedFilename()).toBe("boleto.pdf");

  const location = view.getByTestId("message-location");
  await expect(location).toContainText("Av. Paulista, 1000");
  // No internet in tests: the map opens on a stub page.
  await context.route("https://maps.google.com/**", (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>map</title>" }));
  const popup = page.waitForEvent("popup");
  await location.getByRole("button", { name: "Visualizar" }).click();
  expect((await popup).url()).toContain("maps.google.com");

  await expect(view.getByTestId("message-call")).toContainText("Chamada de voz perdida");
  await screenshot(page, { path: "/tmp/tickets-media.png" });
  expect(consoleErrors.errors).toEqual([]);
});
