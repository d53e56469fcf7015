import { createTenant, expect, login, test } from "../support/fixtures.js";
import { screenshot } from "../support/screenshots.js";

test("an agent creates general and personal quick replies with an attachment, then edits and deletes one", async ({ page, browser }) => {
  const tenant = await createTenant();
  await login(page, tenant.user.email);
  await page.goto("/quick-messages");
  await expect(page.getByRole("heading", { name: "Respostas Rápidas" })).toBeVisible();

  await page.getByRole("button", { name: "Adicionar resposta" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("Obrigatório")).toBeVisible();
  await dialog.getByLabel("Atalho").fill("ola");
  await dialog.getByLabel("Mensagem").fill("Olá! Como posso ajudar?");
  await dialog.getByTestId("quick-message-file").setInputFiles({ name: "tabela.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") });
  await expect(dialog.getByText("tabela.pdf")).toBeVisible();
  await screenshot(page, { path: "/tmp/quick-messages-dialog.png" });
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Resposta rápida salva com sucesso!")).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.getByRole("button", { name: "Adicionar resposta" }).click();
  await dialog.getByLabel("Atalho").fill("meu");
  await dialog.getByLabel("Mensagem").fill("Resposta só minha");
  await dialog.getByRole("switch").click();
  await expect(dialog.getByText("Pessoal (visível apenas para você)")).toBeVisible();
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog).toBeHidden();

  const rows = page.getByTestId("quick-message-row");
  await expect(rows).toHaveCount(2);
  await page.reload();
  await expect(rows.filter({ hasText: "/ola" })).toContainText("Geral");
  await expect(rows.filter({ hasText: "/meu" })).toContainText("Pessoal");
  await rows.filter({ hasText: "/ola" }).getByRole("button", { name: "Editar resposta" }).click();
  await expect(dialog.getByText("tabela.pdf")).toBeVisible();
  await dialog.getByLabel("Mensagem").fill("Olá! Em que posso ajudar hoje?");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(rows.filter({ hasText: "/ola" })).toContainText("Em que posso ajudar hoje?");
  await screenshot(page, { path: "/tmp/quick-messages-list.png" });

  // Another agent of the company sees the general reply live, not the personal one.
  const other = await browser.newPage({ baseURL: new URL(page.url()).origin });
  await login(other, tenant.supervisor.email);
  await other.goto("/quick-messages");
  await expect(other.getByTestId("quick-message-row")).toHaveCount(1);
  await rows.filter({ hasText: "/meu" }).getByRole("button", { name: "Excluir resposta" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(rows).toHaveCount(1);
  await page.getByRole("button", { name: "Adicionar resposta" }).click();
  await dialog.getByLabel("Atalho").fill("tchau");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(other.getByTestId("quick-message-row").filter({ hasText: "/tchau" })).toBeVisible();
  await other.close();
});
