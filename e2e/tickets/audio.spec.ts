import { createTenant, expect, login, test } from "../support/fixtures.js";
import { addSandboxConnection, customerWrites, openPhoneAndScan, watchConsole } from "../sandbox/helpers.js";

// Chromium's fake microphone (a beep) stands in for a real one.
test.use({
  permissions: ["microphone"],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"],
  },
});

test("an agent records an audio message; it is sent as MP3 and plays back", async ({ page, context }) => {
  test.setTimeout(90_000);
  const t = await createTenant();
  await login(page, t.admin.email);
  const consoleErrors = watchConsole(page);
  const whatsappId = await addSandboxConnection(page, "Sandbox Áudio");
  const phone = await openPhoneAndScan(context, whatsappId);
  await customerWrites(phone, "Pode me mandar um áudio?");
  await page.goto("/tickets");
  await page.getByTestId("tab-pending").click();
  await page.getByTestId("list-pending").getByTestId("ticket-item").first().getByTestId("ticket-action-accept").click();
  const view = page.getByTestId("ticket-view");
  await expect(view).toHaveAttribute("data-status", "open");

  await page.getByTestId("record-button").click();
  await expect(page.getByTestId("recorder")).toBeVisible();
  await page.waitForTimeout(2500);
  const sent = page.waitForRequest((r) => r.method() === "POST" && /\/api\/messages\/\d+$/.test(r.url()));
  await page.getByRole("button", { name: "Enviar áudio" }).click();
  const body = (await sent).postDataBuffer()?.toString("latin1") ?? "";
  expect(body).toContain('filename="audio-');
  expect(body).toContain("Content-Type: audio/mpeg");
  const audio = view.locator('[data-testid="message"][data-from-me="true"]').getByTestId("message-audio");
  await expect(audio).toBeVisible();
  expect(await audio.evaluate((el: HTMLAudioElement) => el.src.startsWith("blob:"))).toBe(true);
  expect(consoleErrors.errors).toEqual([]);
});
