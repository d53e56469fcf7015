import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

/** The BI page: the company's biUrl in a sandboxed frame when its host is a BI host; a message otherwise. */
test("the BI page frames an allowed biUrl in a sandbox and refuses any other", async ({ page }) => {
  const t = await createTenant();
  const setBiUrl = (url: string) => db().exec("UPDATE companies SET bi_url = $2 WHERE id = $1", [t.companyId, url]);
  // the dashboard's host answers from here, not from the internet
  await page.route("https://app.powerbi.com/**", (route) => route.fulfill({ contentType: "text/html", body: "<h1>Painel de vendas</h1>" }));

  await setBiUrl("https://app.powerbi.com/view?r=eyJrIjoiYWJj");
  await login(page, t.admin.email);
  await page.getByRole("link", { name: "BI", exact: true }).click();
  await expect(page).toHaveURL(/\/bi$/);
  const frame = page.getByTestId("bi-frame");
  await expect(frame).toHaveAttribute("src", "https://app.powerbi.com/view?r=eyJrIjoiYWJj");
  await expect(frame).toHaveAttribute("sandbox", /allow-scripts/);
  expect(await frame.getAttribute("sandbox")).not.toContain("allow-top-navigation");
  await expect(page.frameLocator('[data-testid="bi-frame"]').getByRole("heading", { name: "Painel de vendas" })).toBeVisible();
  await page.setViewportSize({ width: 1366, height: 900 });
  await screenshot(page, { path: "/tmp/bi-1366.png" });

  // a host off the list: a message, no frame, the URL never written into the page
  await setBiUrl('https://evil.example.com/"><img src=x onerror=alert(1)>');
  await page.reload();
  await expect(page.getByTestId("bi-refused")).toContainText("não está na lista de serviços de BI permitidos");
  await expect(page.getByTestId("bi-frame")).toHaveCount(0);
  await expect(page.locator("img[src=x]")).toHaveCount(0);
  await setBiUrl("http://app.powerbi.com/view");
  await page.reload();
  await expect(page.getByTestId("bi-refused")).toContainText("https://");
  await expect(page.getByTestId("bi-frame")).toHaveCount(0);

  // no biUrl: no menu item (the session is read again on a page load)
  await setBiUrl("");
  await page.goto("/reports");
  await expect(page.getByRole("link", { name: "Relatórios" })).toBeVisible();
  await expect(page.getByRole("link", { name: "BI", exact: true })).toHaveCount(0);
});

test("the BI page is for admins", async ({ page }) => {
  const t = await createTenant();
  await db().exec("UPDATE companies SET bi_url = 'https://app.powerbi.com/view?r=1' WHERE id = $1", [t.companyId]);
  await login(page, t.supervisor.email);
  await expect(page.getByRole("link", { name: "BI", exact: true })).toHaveCount(0);
  await page.goto("/bi");
  await expect(page.getByTestId("bi-frame")).toHaveCount(0);
});
