import { buildQueue, createTenant, db, expect, login, test } from "../support/fixtures.js";
import { addSandboxConnection, inbound, openPhoneAndScan, watchConsole } from "../sandbox/helpers.js";
import { expectNoSidewaysScroll } from "../support/layout.js";
import { screenshot } from "../support/screenshots.js";

/**
 * The contact's history obeys who may see what: an agent of Vendas opening the contact's new ticket sees,
 * in place of the messages of the contact's closed Financeiro ticket, one line saying how many were hidden
 * and from which queue; when the admin shares the whole history (Settings › Options) the agent reads them.
 */
test("the conversation shows a hidden-messages line in place of another queue's ticket, until the company shares the history", async ({ page, browser }) => {
  test.setTimeout(150_000);
  const t = await createTenant();
  const vendas = await buildQueue(db(), t.companyId, { name: "Vendas", color: "#2e7d32" });
  const financeiro = await buildQueue(db(), t.companyId, { name: "Financeiro", color: "#c62828" });
  await db().exec("INSERT INTO user_queues (company_id, user_id, queue_id) VALUES ($1, $2, $3)", [t.companyId, t.user.id, vendas]);

  await login(page, t.admin.email);
  const whatsappId = await addSandboxConnection(page, "Sandbox Histórico");
  (await openPhoneAndScan(page.context(), whatsappId)).close();

  const number = "5511977770001";
  for (const body of ["Minha fatura veio errada", "Segue o código do boleto", "Pode conferir?"]) await inbound(page, whatsappId, { number, name: "Carla Souza", body });
  const closed = await db().one<{ id: number }>("SELECT id FROM tickets WHERE company_id = $1 ORDER BY id DESC LIMIT 1", [t.companyId]);
  await db().exec("UPDATE tickets SET queue_id = $2, status = 'closed', user_id = NULL WHERE id = $1", [closed.id, financeiro]);
  await inbound(page, whatsappId, { number, name: "Carla Souza", body: "Oi, quero comprar outro plano" });
  const current = await db().one<{ id: number; uuid: string }>("SELECT id, uuid FROM tickets WHERE company_id = $1 ORDER BY id DESC LIMIT 1", [t.companyId]);
  expect(current.id).not.toBe(closed.id);
  await db().exec("UPDATE tickets SET queue_id = $2, status = 'open', user_id = $3 WHERE id = $1", [current.id, vendas, t.user.id]);

  const agentContext = await browser.newContext();
  const agent = await agentContext.newPage();
  const consoleErrors = watchConsole(agent);
  await login(agent, t.user.email);
  await agent.goto(`/tickets/${current.uuid}`);
  const list = agent.getByTestId("messages-list");
  await expect(list.getByTestId("message").filter({ hasText: "Oi, quero comprar outro plano" })).toBeVisible();
  await expect(list.getByTestId("hidden-messages")).toHaveText("3 mensagens de outro atendimento na fila Financeiro ocultadas");
  await expect(list.getByTestId("message")).toHaveCount(1);
  await expect(list.getByText("Minha fatura veio errada")).toHaveCount(0);
  // the line comes before the visible message it precedes in time
  const order = await list.evaluate((el) => [...el.querySelectorAll('[data-testid="hidden-messages"], [data-testid="message"]')].map((n) => n.getAttribute("data-testid")));
  expect(order).toEqual(["hidden-messages", "message"]);
  await screenshot(agent, { path: "/tmp/history-hidden-line.png" });
  // on a phone the line wraps inside the conversation
  await agent.setViewportSize({ width: 390, height: 844 });
  const line = list.getByTestId("hidden-messages");
  await expect(line).toBeVisible();
  await expectNoSidewaysScroll(agent, 390);
  const box = (await line.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await screenshot(agent, { path: "/tmp/history-hidden-line-390.png" });
  await agent.setViewportSize({ width: 1280, height: 800 });

  // the admin shares the whole history
  await page.goto("/settings");
  const share = page.getByRole("switch", { name: "Compartilhar todo o histórico do contato entre as filas" });
  await expect(share).not.toBeChecked();
  await share.click();
  await expect(page.getByText("Configuração atualizada com sucesso.")).toBeVisible();
  await expect(share).toBeChecked();
  await screenshot(page, { path: "/tmp/history-setting.png" });

  await agent.reload();
  await expect(list.getByTestId("message").filter({ hasText: "Minha fatura veio errada" })).toBeVisible();
  await expect(list.getByTestId("message")).toHaveCount(4);
  await expect(list.getByTestId("hidden-messages")).toHaveCount(0);
  expect(consoleErrors.errors).toEqual([]);
  await agentContext.close();
});
