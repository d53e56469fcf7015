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
  const sent = page.waitForResponse((r) => r.request().method() === "POST" && /\/api\/messages\/\d+$/.test(r.url()));
  await page.getByRole("button", { name: "Enviar áudio" }).click();
  const { messages } = (await (await sent).json()) as { messages: { id: number; mediaType: string; mimetype: string; mediaName: string }[] };
  expect(messages[0]).toMatchObject({ mediaType: "audio", mimetype: "audio/mpeg" });
  expect(messages[0]?.mediaName).toMatch(/^audio-\d+\.mp3$/);
  // The stored file is an MP3 (an MPEG audio frame sync or an ID3 tag at the start).
  const head = await page.evaluate(async (id) => {
    const res = await fetch(`/api/messages/media/${id}`, { headers: { authorization: `Bearer ${localStorage.getItem("token")}` } });
    return Array.from(new Uint8Array(await res.arrayBuffer()).slice(0, 3));
  }, messages[0]!.id);
  expect(head[0] === 0xff ? (head[1]! & 0xe0) === 0xe0 : String.fromCharCode(...head) === "ID3").toBe(true);
  const audio = view.locator('[data-testid="message"][data-from-me="true"]').getByTestId("message-audio");
  await expect(audio).toBeVisible();
  expect(await audio.evaluate((el: HTMLAudioElement) => el.src.startsWith("blob:"))).toBe(true);
  expect(consoleErrors.errors).toEqual([]);
});
