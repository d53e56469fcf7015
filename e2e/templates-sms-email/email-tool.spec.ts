import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { watchConsole } from "../sandbox/helpers.js";
import { screenshot, themeShots } from "../support/screenshots.js";

test("e-mail tool: invalid addresses named, one send per recipient, the list 5 per page with preview, open and close", async ({ page }) => {
  test.setTimeout(120_000);
  const consoleWatch = watchConsole(page);
  const tenant = await createTenant();
  await login(page, tenant.supervisor.email);
  await page.getByRole("link", { name: "Disparo de Emails" }).click();
  await expect(page).toHaveURL(/\/Email$/);
  await expect(page.getByRole("heading", { name: "Disparo de Emails" })).toBeVisible();

  await page.getByRole("button", { name: "Enviar" }).click();
  await expect(page.getByText("Obrigatório")).toHaveCount(3);
  await page.getByLabel("Destinatários").fill("ana@cliente.test, nao-e-email, bruno@cliente.test, @x");
  await page.getByLabel("Assunto").fill("Reunião de amanhã");
  const long = `Olá! ${"A reunião será às 10h na sala 3. ".repeat(8)}Até lá.`;
  await page.getByLabel("Mensagem").fill(long);
  await page.getByRole("button", { name: "Enviar" }).click();
  await expect(page.getByText("E-mails inválidos: nao-e-email, @x")).toBeVisible();
  expect(await db().one<{ n: number }>("SELECT count(*)::int AS n FROM sent_emails WHERE company_id = $1", [tenant.companyId])).toEqual({ n: 0 });

  await page.getByLabel("Destinatários").fill("ana@cliente.test, bruno@cliente.test");
  await page.getByRole("button", { name: "Enviar" }).click();
  await expect(page.getByTestId("send-queued")).toHaveText("2 e-mails enviados para a fila de envio.");
  await expect(page.getByLabel("Destinatários")).toHaveValue("");
  const stored = await db().many<{ sender: string; subject: string }>("SELECT sender, subject FROM sent_emails WHERE company_id = $1 ORDER BY id", [tenant.companyId]);
  expect(stored).toEqual([
    { sender: "ana@cliente.test", subject: "Reunião de amanhã" },
    { sender: "bruno@cliente.test", subject: "Reunião de amanhã" },
  ]);

  // 5 older ones: 7 in all, 2 pages
  for (let i = 1; i <= 5; i++) {
    await db().exec("INSERT INTO sent_emails (company_id, sender, subject, message, status, created_at) VALUES ($1, $2, $3, 'Antigo', 'sent', now() - ($4 || ' hours')::interval)", [
      tenant.companyId,
      `antigo${i}@cliente.test`,
      `Aviso ${i}`,
      String(i),
    ]);
  }
  await page.getByRole("link", { name: "Emails Enviados" }).click();
  await expect(page).toHaveURL(/\/EmailLis$/);
  await expect(page.getByRole("heading", { name: "Lista de Emails Enviados" })).toContainText("(7)");
  const cards = page.getByTestId("sent-email");
  await expect(cards).toHaveCount(5);
  const newest = cards.filter({ hasText: "bruno@cliente.test" });
  await expect(newest.getByTestId("sent-email-preview")).toHaveText(`${long.slice(0, 100)}...`);
  await expect(newest.getByTestId("sent-email-status")).toHaveText("Enviado");

  await newest.getByRole("button", { name: "Abrir" }).click();
  const dialog = page.getByRole("dialog", { name: "Reunião de amanhã" });
  await expect(dialog.getByTestId("sent-email-message")).toHaveText(long);
  await dialog.getByRole("button", { name: "Fechar" }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole("button", { name: "Ir para a página 2" }).click();
  await expect(cards).toHaveCount(2);
  await expect(cards.first()).toContainText("Aviso 4");

  await themeShots(page, "sent-emails", () => expect(cards.first()).toBeVisible());
  expect(consoleWatch.errors).toEqual([]);
});

test("e-mail tool: a plain user sees neither menu item", async ({ page }) => {
  const tenant = await createTenant();
  await login(page, tenant.user.email);
  await expect(page.getByRole("link", { name: "Campanhas" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Disparo de Emails" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Emails Enviados" })).toHaveCount(0);
});

test("e-mail tool: the company's hourly limit refuses the rest of a send, named on the page", async ({ page }) => {
  const consoleWatch = watchConsole(page, [/status of 429/]);
  const tenant = await createTenant();
  await db().exec(
    "INSERT INTO sent_emails (company_id, sender, subject, message, status) SELECT $1, 'x@cliente.test', 'S', 'M', 'sent' FROM generate_series(1, 199)",
    [tenant.companyId],
  );
  await login(page, tenant.admin.email);
  await page.goto("/Email");
  await page.getByLabel("Destinatários").fill("um@cliente.test, dois@cliente.test, tres@cliente.test");
  await page.getByLabel("Assunto").fill("Aviso");
  await page.getByLabel("Mensagem").fill("Texto");
  await page.getByRole("button", { name: "Enviar" }).click();
  await expect(page.getByTestId("send-queued")).toHaveText("1 e-mail enviado para a fila de envio.");
  const failed = page.getByTestId("send-failed");
  await expect(failed).toContainText("2 e-mails recusados:");
  await expect(failed).toContainText("dois@cliente.test");
  await expect(failed).toContainText("tres@cliente.test");
  await expect(failed.getByText("Limite de e-mails por hora atingido. Tente novamente mais tarde.")).toHaveCount(2);
  // only what was refused stays in the form, to send later without repeating the queued one
  await expect(page.getByLabel("Destinatários")).toHaveValue("dois@cliente.test, tres@cliente.test");
  expect(await db().one<{ n: number }>("SELECT count(*)::int AS n FROM sent_emails WHERE company_id = $1", [tenant.companyId])).toEqual({ n: 200 });
  await screenshot(page, { path: "/tmp/email-tool-limit.png" });
  expect(consoleWatch.errors).toEqual([]);
});
