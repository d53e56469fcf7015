import { crc32, deflateSync } from "node:zlib";
import { buildUser, createTenant, db, E2E_ADMIN, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

/** A real PNG (width × height, one colour), so the browser decodes and lays it out. */
function png(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => [r, g, b][i % 3]!)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), chunk("IHDR", header), chunk("IDAT", pixels), chunk("IEND", Buffer.alloc(0))]);
}

test("the super administrator writes an announcement with an image; every company's users see it in the app bar, with a dot until opened", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const title = `Manutenção programada ${Date.now()}`;
  await login(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.goto("/announcements");
  await page.getByRole("button", { name: "Novo informativo" }).click();
  const dialog = page.getByRole("dialog", { name: "Novo informativo" });
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("Obrigatório")).toHaveCount(2);

  await dialog.getByLabel("Título").fill(title);
  await dialog.getByLabel("Texto").fill("O sistema ficará indisponível sábado, das 22h às 23h.\nSalve seus rascunhos.");
  await dialog.getByLabel("Prioridade").click();
  await page.getByRole("option", { name: "Alta" }).click();
  await dialog.getByTestId("announcement-file").setInputFiles({ name: "aviso.png", mimeType: "image/png", buffer: png(480, 160, [37, 99, 235]) });
  await expect(dialog.getByRole("img", { name: "aviso.png" })).toBeVisible();
  await screenshot(page, { path: "/tmp/announcements-dialog.png" });
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId("announcement-row").filter({ hasText: title });
  await expect(row.locator("[data-priority='1']")).toHaveText("Alta");
  await expect(row.getByText("Ativo")).toBeVisible();
  await screenshot(page, { path: "/tmp/announcements-page.png" });

  // an agent of another company, on a phone
  const tenant = await createTenant();
  const phone = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport: { width: 390, height: 844 }, locale: "pt-BR" });
  const agent = await phone.newPage();
  await login(agent, tenant.user.email);
  const dot = agent.getByTestId("announcements-dot").locator(".MuiBadge-badge");
  await expect(dot).toBeVisible();
  await agent.getByRole("button", { name: "Abrir informativos" }).click();
  const item = agent.getByTestId("announcement-item").filter({ hasText: title });
  await expect(item).toHaveAttribute("data-priority", "1");
  await screenshot(agent, { path: "/tmp/announcements-popover-390.png" });
  await item.click();
  const view = agent.getByRole("dialog", { name: title });
  await expect(view.getByText("Salve seus rascunhos.")).toBeVisible();
  const image = view.getByRole("img", { name: "aviso.png" });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(480);
  await screenshot(agent, { path: "/tmp/announcements-view-390.png" });
  await view.getByRole("button", { name: "Fechar" }).click();
  await expect(dot).toBeHidden();
  await agent.reload();
  await expect(agent.getByRole("button", { name: "Abrir informativos" })).toBeVisible();
  await expect(dot).toBeHidden();

  // a change reaches the agent live: the dot comes back without a reload
  await row.getByRole("button", { name: "Editar informativo" }).click();
  const edit = page.getByRole("dialog", { name: "Editar informativo" });
  await edit.getByLabel("Texto").fill("Nova janela: domingo, das 6h às 7h.");
  await edit.getByRole("button", { name: "Salvar" }).click();
  await expect(edit).toBeHidden();
  await expect(dot).toBeVisible();
  await phone.close();
});

test("a user without the super flag is told the page is not for the company and sent to / after a second", async ({ page }) => {
  const tenant = await createTenant();
  await login(page, tenant.admin.email);
  await page.goto("/announcements");
  await expect(page.getByText("Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.")).toBeVisible();
  await expect(page).not.toHaveURL(/\/announcements/, { timeout: 5000 });
  await expect(page.getByRole("button", { name: "Novo informativo" })).toHaveCount(0);
});

test("the announcements page and app bar in the dark theme", async ({ page }) => {
  // a super user of its own: the shared admin logged in by another test at the same time would end this session
  const tenant = await createTenant();
  const root = await buildUser(db(), tenant.companyId, { profile: "admin", super: true, name: "Sara Super" });
  await login(page, root.email);
  await page.evaluate(() => localStorage.setItem("preferredTheme", "dark"));
  await page.goto("/announcements");
  await expect(page.getByRole("heading", { name: "Informativos" })).toBeVisible();
  await page.getByRole("button", { name: "Abrir informativos" }).click();
  await screenshot(page, { path: "/tmp/announcements-dark.png" });
});
