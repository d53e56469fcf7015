import { readFileSync } from "node:fs";
import { strFromU8, unzipSync } from "fflate";
import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { screenshot, themeShots } from "../support/screenshots.js";

test("an administrator exports a contact's data, erases it after confirming, and finds both in the audit log", async ({ page }) => {
  test.setTimeout(150_000);
  const tenant = await createTenant();
  const sql = db();
  const contact = await sql.one<{ id: number }>(
    "INSERT INTO contacts (company_id, name, number, email, extra_info) VALUES ($1, 'Beatriz Lima', '5511976543210', 'bia@cliente.test', '[{\"name\": \"Bairro\", \"value\": \"Boa Viagem\"}]'::jsonb) RETURNING id",
    [tenant.companyId],
  );
  const ticket = await sql.one<{ id: number; uuid: string }>("INSERT INTO tickets (company_id, contact_id, status) VALUES ($1, $2, 'closed') RETURNING id, uuid", [
    tenant.companyId,
    contact.id,
  ]);
  await sql.exec("INSERT INTO messages (company_id, ticket_id, contact_id, body, from_me) VALUES ($1, $2, $3, 'Meu endereço é Rua das Flores, 10', false)", [
    tenant.companyId,
    ticket.id,
    contact.id,
  ]);
  await sql.exec(
    `INSERT INTO messages (company_id, ticket_id, contact_id, body, from_me, media_type, media_path, media_name, mimetype)
     VALUES ($1, $2, $3, '', false, 'image', $4, 'comprovante.jpg', 'image/jpeg')`,
    [tenant.companyId, ticket.id, contact.id, `${tenant.companyId}/2026-01/e2eLgpdComprovante.jpg`],
  );

  await login(page, tenant.admin.email);
  await page.goto("/contacts");
  const row = page.getByTestId("contact-row").filter({ hasText: "Beatriz Lima" });
  await row.getByRole("button", { name: "Dados pessoais (LGPD)" }).click();
  await expect(page.getByRole("menuitem", { name: "Exportar dados" })).toBeVisible();
  await screenshot(page, { path: "/tmp/lgpd-menu.png" });
  const download = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: "Exportar dados" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`dados-pessoais-contato-${contact.id}.zip`);
  // a ZIP: a page the person can read, and the same content as JSON
  const zipPath = (await file.path())!;
  const files = unzipSync(new Uint8Array(readFileSync(zipPath)));
  expect(Object.keys(files)).toEqual(["dados-pessoais.html", "dados-pessoais.json"]);
  const exported = JSON.parse(strFromU8(files["dados-pessoais.json"]!));
  expect(exported.contact).toMatchObject({ name: "Beatriz Lima", number: "5511976543210", email: "bia@cliente.test" });
  expect(exported.tickets[0].messages.map((m: { text: string }) => m.text)).toEqual(["Meu endereço é Rua das Flores, 10", ""]);
  const html = strFromU8(files["dados-pessoais.html"]!);
  expect(html).toContain("<h1>Dados pessoais de Beatriz Lima</h1>");
  expect(html).toContain("<dt>Bairro</dt><dd>Boa Viagem</dd>");
  expect(html).not.toContain("company_id");

  // erasing asks first; cancelling changes nothing
  await row.getByRole("button", { name: "Dados pessoais (LGPD)" }).click();
  await page.getByRole("menuitem", { name: "Apagar dados (LGPD)" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Apagar os dados de Beatriz Lima?" })).toBeVisible();
  await expect(dialog).toContainText("Esta ação não pode ser desfeita.");
  await screenshot(page, { path: "/tmp/lgpd-erase-dialog.png" });
  await dialog.getByRole("button", { name: "Cancelar" }).click();
  await expect(dialog).toBeHidden();
  expect((await sql.one<{ name: string }>("SELECT name FROM contacts WHERE id = $1", [contact.id])).name).toBe("Beatriz Lima");

  await row.getByRole("button", { name: "Dados pessoais (LGPD)" }).click();
  await page.getByRole("menuitem", { name: "Apagar dados (LGPD)" }).click();
  await dialog.getByRole("button", { name: "Apagar dados" }).click();
  await expect(page.getByText("Dados do contato apagados.")).toBeVisible();
  await expect(page.getByTestId("contact-row").filter({ hasText: "Contato apagado" })).toContainText(`apagado-${contact.id}`);
  await expect(page.getByText("Beatriz Lima")).toHaveCount(0);
  const stored = await sql.one<{ name: string; email: string; body: string }>(
    "SELECT c.name, c.email, m.body FROM contacts c JOIN messages m ON m.contact_id = c.id WHERE c.id = $1",
    [contact.id],
  );
  expect(stored).toEqual({ name: "Contato apagado", email: "", body: "" });
  // the ticket shows placeholders, and never asks for the erased file
  const mediaRequests: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/messages/media/")) mediaRequests.push(r.url());
  });
  await page.goto(`/tickets/${ticket.uuid}`);
  await expect(page.getByTestId("message-erased").filter({ hasText: "Mídia apagada a pedido do titular" })).toBeVisible();
  await expect(page.getByTestId("message-erased").filter({ hasText: "Mensagem apagada a pedido do titular" })).toBeVisible();
  await expect(page.getByText("Rua das Flores")).toHaveCount(0);
  await screenshot(page, { path: "/tmp/lgpd-erased-ticket.png" });
  expect(mediaRequests).toEqual([]);
  await page.goto("/contacts");

  // the audit log: the export, the erasure and the logins, newest first
  await page.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Auditoria" }).click();
  await expect(page.getByRole("heading", { name: /Auditoria/ })).toBeVisible();
  const rows = page.getByTestId("audit-row");
  await expect(rows.first()).toContainText("Dados apagados (LGPD)");
  await expect(rows.first()).toContainText(`Contato #${contact.id}`);
  await expect(rows.nth(1)).toContainText("Dados exportados (LGPD)");
  await expect(rows.filter({ hasText: "Login" }).first()).toContainText(tenant.admin.email);
  await expect(page.getByText("Beatriz")).toHaveCount(0);

  // filtered by action
  await page.getByLabel("Ação").click();
  await page.getByRole("option", { name: "Dados apagados (LGPD)" }).click();
  await expect(rows).toHaveCount(1);
  await themeShots(page, "lgpd-audit", async () => {
    await expect(rows.first()).toBeVisible();
  });
});

test("a supervisor has no LGPD menu on the contacts", async ({ page }) => {
  const tenant = await createTenant();
  await db().exec("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Carlos Dias', '5511976540000')", [tenant.companyId]);
  await login(page, tenant.supervisor.email);
  await page.goto("/contacts");
  await expect(page.getByTestId("contact-row")).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Editar contato" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Dados pessoais (LGPD)" })).toHaveCount(0);
});

test("an agent cannot open the audit log", async ({ page }) => {
  const tenant = await createTenant();
  await login(page, tenant.user.email);
  await page.goto("/audit-log");
  await expect(page).toHaveURL(/\/tickets$/);
});
