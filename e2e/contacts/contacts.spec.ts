import { readFile } from "node:fs/promises";
import { createTenant, db, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

test("an administrator adds, finds, edits and deletes a contact", async ({ page }) => {
  const tenant = await createTenant();
  await login(page, tenant.admin.email);
  await page.goto("/contacts");
  await expect(page.getByRole("heading", { name: "Contatos" })).toBeVisible();
  await expect(page.getByText("Nenhum contato encontrado.")).toBeVisible();

  await page.getByRole("button", { name: "Adicionar contato" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nome").fill("M");
  await dialog.getByLabel("Número do Whatsapp").fill("12-34");
  await dialog.getByLabel("Endereço de email").fill("not-an-email");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("Muito curto!")).toHaveCount(2);
  await expect(dialog.getByText("E-mail inválido")).toBeVisible();

  await dialog.getByLabel("Nome").fill("Maria Silva");
  await dialog.getByLabel("Número do Whatsapp").fill("+55 (11) 98765-4321");
  await dialog.getByLabel("Endereço de email").fill("maria@example.com");
  await dialog.getByRole("button", { name: "Adicionar informação" }).click();
  await dialog.getByLabel("Nome do campo").fill("Cliente desde");
  await dialog.getByLabel("Valor").fill("2020");
  await screenshot(page, { path: "/tmp/contacts-dialog.png" });
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Contato salvo com sucesso!")).toBeVisible();
  const row = page.getByTestId("contact-row").filter({ hasText: "Maria Silva" });
  await expect(row).toContainText("5511987654321");

  // A second contact, then the search (debounced) narrows the list.
  await page.getByRole("button", { name: "Adicionar contato" }).click();
  await dialog.getByLabel("Nome").fill("João Pereira");
  await dialog.getByLabel("Número do Whatsapp").fill("5521912345678");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByTestId("contact-row")).toHaveCount(2);
  await page.getByRole("searchbox", { name: "Pesquisar..." }).fill("maria");
  await expect(page.getByTestId("contact-row")).toHaveCount(1);
  await expect(page.getByTestId("contact-row")).toContainText("Maria Silva");
  await page.getByRole("searchbox", { name: "Pesquisar..." }).fill("");
  await expect(page.getByTestId("contact-row")).toHaveCount(2);

  // Edit, and the change survives a reload.
  await row.getByRole("button", { name: "Editar contato" }).click();
  await expect(dialog.getByLabel("Valor")).toHaveValue("2020");
  await dialog.getByLabel("Endereço de email").fill("maria.silva@example.com");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(page.getByTestId("contact-row").filter({ hasText: "Maria Silva" })).toContainText("maria.silva@example.com");
  await screenshot(page, { path: "/tmp/contacts-list.png" });

  // Delete with confirmation.
  await page.getByTestId("contact-row").filter({ hasText: "João Pereira" }).getByRole("button", { name: "Excluir contato" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByText("Contato excluído com sucesso!")).toBeVisible();
  await expect(page.getByTestId("contact-row")).toHaveCount(1);
  await page.reload();
  await expect(page.getByTestId("contact-row")).toHaveCount(1);
});

test("an agent does not get the delete button", async ({ page }) => {
  const tenant = await createTenant();
  await db().exec("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Carlos', '5511900000001')", [tenant.companyId]);
  await login(page, tenant.user.email);
  await page.goto("/contacts");
  await expect(page.getByTestId("contact-row")).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Editar contato" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Excluir contato" })).toHaveCount(0);
});

test("contacts are imported from a CSV file with counts and reasons, and exported", async ({ page }) => {
  const tenant = await createTenant();
  await db().exec("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Antigo', '5511911112222')", [tenant.companyId]);
  await login(page, tenant.admin.email);
  await page.goto("/contacts");
  await page.getByRole("button", { name: "Importar" }).click();
  const dialog = page.getByRole("dialog");

  await dialog.getByRole("button", { name: "Importar" }).click();
  await expect(dialog.getByTestId("import-error")).toHaveText("Por favor, selecione um arquivo.");

  // Over 5 MB: refused before any upload.
  await dialog.getByTestId("import-file").setInputFiles({ name: "grande.csv", mimeType: "text/csv", buffer: Buffer.alloc(5 * 1024 * 1024 + 1, 65) });
  await expect(dialog.getByTestId("import-error")).toHaveText("O arquivo não pode exceder 5MB.");

  // Missing header columns.
  await dialog.getByTestId("import-file").setInputFiles({ name: "layout.csv", mimeType: "text/csv", buffer: Buffer.from("nome;numero\nAna;5511900000000\n") });
  await dialog.getByRole("button", { name: "Importar" }).click();
  await expect(dialog.getByTestId("import-error")).toHaveText("Layout do arquivo inválido. Esperado: nome, número, telefone, cpf.");

  const csv = ["nome;telefone;cpf;email", "Beatriz Souza;5511933334444;;bia@example.com", "Antigo Atualizado;5511911112222;;", "Sem Telefone;;;", ""].join("\n");
  await dialog.getByTestId("import-file").setInputFiles({ name: "contatos.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await dialog.getByRole("button", { name: "Importar" }).click();
  const result = dialog.getByTestId("import-result");
  await expect(result).toContainText("Importados: 1");
  await expect(result).toContainText("Atualizados: 1");
  await expect(result).toContainText("Rejeitados: 1");
  await expect(result).toContainText("Linha 4");
  await expect(page.getByText("Contatos importados com sucesso.").first()).toBeVisible();
  await screenshot(page, { path: "/tmp/contacts-import.png" });
  await dialog.getByRole("button", { name: "Fechar" }).click();
  await expect(page.getByTestId("contact-row").filter({ hasText: "Beatriz Souza" })).toBeVisible();

  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Exportar CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const text = await readFile((await download.path())!, "utf8");
  expect(text).toContain("Beatriz Souza");
  expect(text).toContain("5511933334444");
});

test("a contact row opens its ticket or the new-ticket dialog, which checks its fields", async ({ page }) => {
  const tenant = await createTenant();
  await db().exec(
    "INSERT INTO whatsapps (company_id, name, provider, status, is_default) VALUES ($1, 'Principal', 'sandbox', 'CONNECTED', true), ($1, 'Reserva', 'sandbox', 'DISCONNECTED', false)",
    [tenant.companyId],
  );
  await db().exec("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Rita Cliente', '5511955556666')", [tenant.companyId]);
  await login(page, tenant.admin.email);
  await page.goto("/contacts");

  await page.getByTestId("contact-row").filter({ hasText: "Rita Cliente" }).getByRole("button", { name: "Abrir ticket" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("Rita Cliente")).toBeVisible();
  await dialog.getByRole("button", { name: "Abrir ticket" }).click();
  await expect(dialog.getByText("Digite uma mensagem para abrir o ticket")).toBeVisible();
  // Only connected connections are offered.
  await dialog.getByTestId("new-ticket-connection").locator("..").click();
  await expect(page.getByRole("option", { name: "Principal" })).toBeVisible();
  await expect(page.getByRole("option", { name: "Reserva" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await screenshot(page, { path: "/tmp/contacts-new-ticket.png" });
  await dialog.getByRole("button", { name: "Cancelar" }).click();

  // A row without a ticket opens the same dialog; nothing is created behind the user's back.
  await page.getByTestId("contact-row").filter({ hasText: "Rita Cliente" }).click();
  await expect(dialog.getByText("Rita Cliente")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancelar" }).click();
  const none = await db().one<{ n: number }>("SELECT count(*)::int AS n FROM tickets WHERE company_id = $1", [tenant.companyId]);
  expect(none.n).toBe(0);
  // With an open ticket the row goes straight to it.
  const open = await db().one<{ uuid: string }>(
    "INSERT INTO tickets (company_id, contact_id, whatsapp_id, status, user_id) SELECT $1, c.id, w.id, 'open', $2 FROM contacts c, whatsapps w WHERE c.company_id = $1 AND w.company_id = $1 AND w.name = 'Principal' RETURNING uuid",
    [tenant.companyId, tenant.admin.id],
  );
  await page.getByTestId("contact-row").filter({ hasText: "Rita Cliente" }).click();
  await page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);
  expect(page.url().split("/").pop()).toBe(open.uuid);
});
