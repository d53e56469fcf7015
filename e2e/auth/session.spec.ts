import { createTenant, expect, login, test, TEST_PASSWORD } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

const isoInDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function submitLogin(page: import("@playwright/test").Page, email: string) {
  await page.goto("/login");
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(TEST_PASSWORD);
  await page.locator('button[type="submit"]').click();
}

test("the login page", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByText("Atende", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Não tem uma conta? Cadastre-se!" })).toBeVisible();
  await screenshot(page, { path: "/tmp/login.png" });
  // drawn without MUI: its labels name the fields, and it follows the dark theme chosen on the device
  await expect(page.getByLabel("Email *")).toBeFocused();
  await expect(page.getByLabel("Senha *")).toBeVisible();
  await page.evaluate(() => localStorage.setItem("preferredTheme", "dark"));
  await page.reload();
  await expect(page.locator("form")).toHaveCSS("background-color", "rgb(30, 41, 59)");
  await expect(page.getByRole("button", { name: "Entrar" })).toHaveCSS("background-color", "rgb(96, 165, 250)");
  await screenshot(page, { path: "/tmp/login-dark.png" });
});

test("wrong credentials are refused with the translated error", async ({ page }) => {
  const t = await createTenant();
  await page.goto("/login");
  await page.locator('input[name="email"]').fill(t.user.email);
  await page.locator('input[name="password"]').fill("wrong-password");
  await page.locator('button[type="submit"]').click();
  await expect(page.getByText("Erro de autenticação. Por favor, tente novamente.")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test("a company whose due date has passed is refused with the date and no session", async ({ page }) => {
  const t = await createTenant({ dueDate: "2020-01-31" });
  await submitLogin(page, t.admin.email);
  await expect(page.getByText("Opss! Sua assinatura venceu em 31/01/2020. Entre em contato com o Suporte para mais informações!")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
  await page.goto("/tickets");
  await expect(page).toHaveURL(/\/login$/);
});

test("fewer than 5 days left warns with the plural wording", async ({ page }) => {
  const t = await createTenant({ dueDate: isoInDays(3) });
  await submitLogin(page, t.user.email);
  await expect(page.getByText("Sua assinatura vence em 3 dias.")).toBeVisible();
  await expect(page).toHaveURL(/\/tickets/);
});

test("one day left warns with the singular wording", async ({ page }) => {
  const t = await createTenant({ dueDate: isoInDays(1) });
  await submitLogin(page, t.user.email);
  await expect(page.getByText("Sua assinatura vence em 1 dia.")).toBeVisible();
});

test("an authenticated visitor of /login goes to the app, an anonymous one of /tickets to /login", async ({ page }) => {
  await page.goto("/tickets");
  await expect(page).toHaveURL(/\/login$/);
  const t = await createTenant();
  await login(page, t.user.email);
  await page.goto("/login");
  await expect(page).not.toHaveURL(/\/login$/);
});

test("a second login of the same account sends the first browser back to /login", async ({ page, browser }) => {
  const t = await createTenant();
  // The first browser's socket must be connected (socket.io CONNECT acknowledged) before the second login.
  const connected = new Promise<void>((resolve) => {
    page.on("websocket", (ws) => ws.on("framereceived", (f) => String(f.payload).startsWith("40") && resolve()));
  });
  await login(page, t.user.email);
  await connected;

  const other = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  try {
    const second = await other.newPage();
    await login(second, t.user.email);
    await expect(page.getByText("Sua conta foi acessada em outro computador.")).toBeVisible();
    await page.waitForURL("**/login");
    expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
    // the login page it lands on says why, once
    await expect(page.getByTestId("login-ended-elsewhere")).toHaveText("Sua conta foi acessada em outro computador.");
    await page.reload();
    await expect(page.getByTestId("login-ended-elsewhere")).toHaveCount(0);
    // The new session is unaffected.
    await second.reload();
    await expect(second).toHaveURL(/\/tickets/);
  } finally {
    await other.close();
  }
});

test("another user's login does not disturb the session", async ({ page, browser }) => {
  const t = await createTenant();
  const connected = new Promise<void>((resolve) => {
    page.on("websocket", (ws) => ws.on("framereceived", (f) => String(f.payload).startsWith("40") && resolve()));
  });
  await login(page, t.user.email);
  await connected;
  const other = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  try {
    await login(await other.newPage(), t.admin.email);
    await page.waitForTimeout(1500);
    await expect(page).toHaveURL(/\/tickets/);
    await expect(page.getByText("Sua conta foi acessada em outro computador.")).toHaveCount(0);
  } finally {
    await other.close();
  }
});
