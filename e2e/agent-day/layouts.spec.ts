import type { Page } from "@playwright/test";
import { createTenant, db, E2E_ADMIN, expect, login, test } from "../support/fixtures.js";
import { addSandboxConnection, openPhoneAndScan, watchConsole } from "../sandbox/helpers.js";
import { screenshot } from "../support/screenshots.js";

const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1366, height: 768 };

/** The page scrolls no wider than the screen. */
async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

async function expectInViewport(page: Page, box: { x: number; y: number; width: number; height: number } | null, minTop = 0): Promise<void> {
  expect(box).not.toBeNull();
  const vp = page.viewportSize()!;
  expect(box!.y).toBeGreaterThanOrEqual(minTop);
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(vp.width);
}

test("390 px: the connections page shows each connection as a card with its status and actions; disconnecting asks first", async ({ page, context }) => {
  const t = await createTenant();
  await login(page, t.admin.email);
  const consoleErrors = watchConsole(page);
  const whatsappId = await addSandboxConnection(page, "Sandbox Estreito");
  const phone = await openPhoneAndScan(context, whatsappId);
  await phone.close();
  await page.setViewportSize(PHONE);
  await page.goto("/connections");
  const card = page.locator(`[data-testid="connection-row"][data-connection-id="${whatsappId}"]`);
  await expect(card.getByTestId("connection-status-text")).toHaveText("Conectado");
  const disconnect = card.getByTestId("session-disconnect");
  await expect(disconnect).toBeVisible();
  await expectInViewport(page, await disconnect.boundingBox());
  await expectInViewport(page, await card.getByTestId("edit-connection").boundingBox());
  await expectNoHorizontalScroll(page);
  await screenshot(page, { path: "/tmp/agent-day-connections-390.png" });

  await disconnect.click();
  const confirm = page.getByRole("dialog");
  await expect(confirm).toContainText("Desconectar a conexão Sandbox Estreito?");
  await screenshot(page, { path: "/tmp/agent-day-disconnect-confirm.png" });
  await confirm.getByRole("button", { name: "Cancelar" }).click();
  await expect(card.getByTestId("connection-status")).toHaveAttribute("data-status", "CONNECTED");
  await disconnect.click();
  await confirm.getByRole("button", { name: "Desconectar" }).click();
  await expect(card.getByTestId("connection-status")).toHaveAttribute("data-status", "DISCONNECTED");
  expect(consoleErrors.errors).toEqual([]);
});

test("390 px: the contact drawer's title and close button sit below the app bar; the volume is in the account menu", async ({ page }) => {
  const t = await createTenant();
  const contact = await db().one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Bruna Gaveta', '5511944445555') RETURNING id", [t.companyId]);
  const ticket = await db().one<{ uuid: string }>("INSERT INTO tickets (company_id, contact_id, status, user_id) VALUES ($1, $2, 'open', $3) RETURNING uuid", [
    t.companyId,
    contact.id,
    t.admin.id,
  ]);
  await page.setViewportSize(PHONE);
  await login(page, t.admin.email);
  await page.goto(`/tickets/${ticket.uuid}`);
  await page.getByTestId("open-contact").click();
  const drawer = page.getByTestId("contact-drawer");
  await expect(drawer).toBeVisible();
  const appBar = await page.locator("header").first().boundingBox();
  const close = drawer.getByRole("button", { name: "Fechar" });
  await expect(close).toBeVisible();
  await expectInViewport(page, await close.boundingBox(), appBar!.y + appBar!.height);
  await expect(drawer.getByText("Contato", { exact: true }).or(drawer.getByText("Dados do contato")).first()).toBeVisible();
  await screenshot(page, { path: "/tmp/agent-day-drawer-390.png" });
  await close.click();
  await expect(drawer).toBeHidden();

  await page.getByRole("button", { name: "Minha conta" }).click();
  const volume = page.getByRole("slider", { name: "Volume" });
  await expect(volume).toBeVisible();
  await expectInViewport(page, await volume.boundingBox());
  await volume.focus();
  await page.keyboard.press("ArrowLeft");
  await expect(volume).toHaveValue("0.9");
  await screenshot(page, { path: "/tmp/agent-day-volume-390.png" });
});

test("390 px: the contacts page fits the screen; 1366 px: the users toolbar stays on one line", async ({ page }) => {
  const t = await createTenant();
  await db().exec("INSERT INTO contacts (company_id, name, number, email) VALUES ($1, 'Carla Estreita', '5511944446666', 'carla@example.com')", [t.companyId]);
  await page.setViewportSize(PHONE);
  await login(page, t.admin.email);
  await page.goto("/contacts");
  await expect(page.getByTestId("contact-row")).toHaveCount(1);
  await expectNoHorizontalScroll(page);
  await screenshot(page, { path: "/tmp/agent-day-contacts-390.png" });
  await page.goto("/tags");
  await expect(page.getByTestId("empty-state")).toBeVisible();
  await screenshot(page, { path: "/tmp/agent-day-empty-390.png" });

  await page.setViewportSize(WIDE);
  await page.goto("/users");
  const toolbar = page.getByTestId("users-toolbar");
  await expect(toolbar.getByRole("button", { name: /Adicionar usuário|Novo usuário/ })).toBeVisible();
  const tops = await toolbar.evaluate((el) => Array.from(el.children).map((c) => Math.round(c.getBoundingClientRect().height)));
  const box = await toolbar.boundingBox();
  expect(box!.height).toBeLessThanOrEqual(48);
  expect(Math.max(...tops)).toBeLessThanOrEqual(48);
  await screenshot(page, { path: "/tmp/agent-day-users-1366.png" });
});

test("1366 px: a super user's users toolbar (with bulk delete) stays on one line", async ({ page }) => {
  await page.setViewportSize(WIDE);
  await login(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.goto("/users");
  const toolbar = page.getByTestId("users-toolbar");
  await expect(toolbar.getByRole("button", { name: /Excluir/ })).toBeVisible();
  const box = await toolbar.boundingBox();
  expect(box!.height).toBeLessThanOrEqual(48);
  await screenshot(page, { path: "/tmp/agent-day-users-super-1366.png" });
});
