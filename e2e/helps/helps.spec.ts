import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

test("help videos show as cards and play in a modal closed by Escape", async ({ page }) => {
  const title = `Como abrir um ticket ${Date.now()}`;
  await db().exec("INSERT INTO helps (title, description, video) VALUES ($1, 'Passo a passo do atendimento.', 'abcDEF12345')", [title]);
  const tenant = await createTenant();
  // No internet here: the embedded player must not reach the provider.
  await page.route("https://www.youtube.com/**", (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<html><body>player</body></html>" }));
  await login(page, tenant.user.email);
  await page.goto("/helps");
  const card = page.getByTestId("help-card").filter({ hasText: title });
  await expect(card).toContainText("Passo a passo do atendimento.");
  await screenshot(page, { path: "/tmp/helps-grid.png" });
  await card.getByRole("button").click();
  const dialog = page.getByRole("dialog", { name: title });
  await expect(dialog.locator("iframe")).toHaveAttribute("src", "https://www.youtube.com/embed/abcDEF12345");
  await screenshot(page, { path: "/tmp/helps-modal.png" });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});
