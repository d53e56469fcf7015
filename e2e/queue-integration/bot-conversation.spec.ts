import type { Page } from "@playwright/test";
import { PROMPT_HANDOFF_MARKER } from "@atende/shared";
import { startFakeBots, type FakeBots } from "../../apps/server/test/fake-bots/server.js";
import { startFakeAi, type FakeAi } from "../../apps/server/test/fake-openai/server.js";
import { buildQueue, buildUser, createTenant, db, expect, login, test } from "../support/fixtures.js";
import { addSandboxConnection, customerWrites, openPhoneAndScan, watchConsole } from "../sandbox/helpers.js";
import { screenshot } from "../support/screenshots.js";
import { countJobs } from "../../apps/server/test/wait.js";
import { TURN_JOB } from "../../apps/server/src/domains/queue-integrations/runtime.js";
import { PROMPT_JOB } from "../../apps/server/src/domains/prompts/runtime.js";

/**
 * The whole conversation a customer has with a bot before a person takes over, on the sandbox phone:
 * a Typebot flow (its chat API served on loopback by the same double the server tests use) and an AI
 * prompt (an OpenAI-compatible double), each handing the ticket to the agents when asked.
 */
let bots: FakeBots;
let ai: FakeAi;
test.beforeAll(async () => {
  bots = await startFakeBots();
  ai = await startFakeAi();
});
test.afterAll(async () => {
  await bots.close();
  await ai.close();
});

/**
 * The bot and AI jobs queued for the customer's latest message with this text: none once a person has
 * the ticket (the answer to the customer's message comes after they would have been queued).
 */
async function botJobsFor(companyId: number, body: string): Promise<number> {
  const m = await db().one<{ id: number }>("SELECT id FROM messages WHERE company_id = $1 AND body = $2 AND NOT from_me ORDER BY id DESC LIMIT 1", [companyId, body]);
  return (await countJobs(db(), TURN_JOB, { messageId: m.id })) + (await countJobs(db(), PROMPT_JOB, { messageId: m.id }));
}

const botSays = (phone: Page, text: string) =>
  expect(phone.locator('[data-testid="phone-message"][data-direction="outbound"]').filter({ hasText: text })).toBeVisible({ timeout: 15_000 });

async function agentAccepts(page: Page, customer: string, botLines: string[]) {
  await page.goto("/tickets");
  await page.getByTestId("tab-pending").click();
  const waiting = page.getByTestId("list-pending").getByTestId("ticket-item").filter({ hasText: customer });
  await expect(waiting).toBeVisible();
  await waiting.getByTestId("ticket-action-accept").click();
  const view = page.getByTestId("ticket-view");
  await expect(view).toHaveAttribute("data-status", "open");
  // the agent reads what the bot said before taking over
  for (const line of botLines) await expect(view.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: line })).toBeVisible();
  await page.getByTestId("message-input").fill(`Olá, ${customer}! Sou a Ana, vou continuar daqui.`);
  await page.getByTestId("message-input").press("Enter");
}

test("a sandbox customer goes through a Typebot flow and is handed to an agent on request", async ({ page, context }) => {
  test.setTimeout(120_000);
  const t = await createTenant();
  const integration = await db().one<{ id: number }>(
    `INSERT INTO queue_integrations (company_id, type, name, project_name, url_n8n, typebot_slug, typebot_expires, typebot_delay_message, typebot_unknown_message)
     VALUES ($1, 'typebot', 'Triagem', 'Triagem', $2, 'suporte', 5, 200, 'Não entendi, responda sim ou não.') RETURNING id`,
    [t.companyId, `${bots.url}/typebot`],
  );
  const queueId = await buildQueue(db(), t.companyId, { name: "Suporte", color: "#16a34a" });
  await db().exec("UPDATE queues SET integration_id = $2 WHERE id = $1", [queueId, integration.id]);

  await login(page, t.admin.email);
  const errors = watchConsole(page);
  const whatsappId = await addSandboxConnection(page, "Loja Bot");
  await db().exec("INSERT INTO whatsapp_queues (company_id, whatsapp_id, queue_id) VALUES ($1, $2, $3)", [t.companyId, whatsappId, queueId]);
  const phone = await openPhoneAndScan(context, whatsappId);
  const phoneErrors = watchConsole(phone);
  await phone.getByTestId("customer-number").fill("5511977776666");
  await phone.getByTestId("customer-name").fill("Paulo Cliente");

  await customerWrites(phone, "Oi");
  await botSays(phone, "Olá! Eu sou o robô.");
  await botSays(phone, "Qual é o seu nome?");
  await customerWrites(phone, "Paulo");
  await botSays(phone, "Prazer, Paulo!");
  await botSays(phone, "Quer falar com um atendente? (sim/não)");
  await customerWrites(phone, "talvez");
  await botSays(phone, "Não entendi, responda sim ou não.");
  await customerWrites(phone, "sim");
  await botSays(phone, "Transferindo para um atendente...");
  await screenshot(phone, { path: "/tmp/bot-typebot-phone.png" });

  await agentAccepts(page, "Paulo Cliente", ["Olá! Eu sou o robô.", "Transferindo para um atendente..."]);
  await botSays(phone, "Sou a Ana, vou continuar daqui.");
  // the bot stays out once a person has the ticket
  const typebotCalls = bots.requests.filter((r) => r.path.startsWith("/typebot")).length;
  await customerWrites(phone, "obrigado!");
  expect(await botJobsFor(t.companyId, "obrigado!")).toBe(0);
  expect(bots.requests.filter((r) => r.path.startsWith("/typebot")).length).toBe(typebotCalls);
  await screenshot(page, { path: "/tmp/bot-typebot-agent.png" });
  expect(errors.errors).toEqual([]);
  expect(phoneErrors.errors).toEqual([]);
});

test("a sandbox customer talks to an AI prompt and asks for a person", async ({ page, context }) => {
  test.setTimeout(120_000);
  const t = await createTenant();
  const root = await buildUser(db(), t.companyId, { profile: "admin", super: true, name: "Sara Super" });
  const queueId = await buildQueue(db(), t.companyId, { name: "Vendas", color: "#2563eb" });
  await login(page, root.email);
  const errors = watchConsole(page);
  const token = await page.evaluate(() => localStorage.getItem("token"));
  const created = await page.request.post("/api/prompt", {
    headers: { authorization: `Bearer ${token}` },
    data: {
      name: "Assistente de vendas",
      prompt: "Você é o assistente de vendas da loja. Responda com gentileza e em poucas frases, em português.",
      apiKey: "sk-test-123456",
      baseUrl: `${ai.url}/v1`,
      model: "gpt-4o-mini",
      queueId,
    },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  const promptId = ((await created.json()) as { id: number }).id;
  const whatsappId = await addSandboxConnection(page, "Loja IA");
  await db().exec("UPDATE whatsapps SET prompt_id = $2 WHERE id = $1", [whatsappId, promptId]);

  const phone = await openPhoneAndScan(context, whatsappId);
  const phoneErrors = watchConsole(phone);
  await phone.getByTestId("customer-number").fill("5511966665555");
  await phone.getByTestId("customer-name").fill("Lia Cliente");
  ai.replies.push({ content: "Olá, Lia! Temos o tênis em todos os tamanhos. Quer que eu separe um?" });
  await customerWrites(phone, "Vocês têm o tênis azul?");
  await botSays(phone, "Temos o tênis em todos os tamanhos.");
  // the model saw the company's prompt with the hand-off convention and the customer's words
  const call = ai.requests.filter((r) => r.path === "/v1/chat/completions").at(-1)!;
  expect(JSON.stringify(call.json)).toContain("assistente de vendas da loja");
  expect(JSON.stringify(call.json)).toContain("Vocês têm o tênis azul?");

  ai.replies.push({ content: PROMPT_HANDOFF_MARKER });
  await customerWrites(phone, "Prefiro falar com uma pessoa");
  await botSays(phone, "Vou transferir você para um de nossos atendentes.");
  await screenshot(phone, { path: "/tmp/bot-ai-phone.png" });

  await agentAccepts(page, "Lia Cliente", ["Temos o tênis em todos os tamanhos."]);
  await botSays(phone, "Sou a Ana, vou continuar daqui.");
  const calls = ai.requests.filter((r) => r.path === "/v1/chat/completions").length;
  await customerWrites(phone, "Quanto custa?");
  expect(await botJobsFor(t.companyId, "Quanto custa?")).toBe(0);
  expect(ai.requests.filter((r) => r.path === "/v1/chat/completions").length).toBe(calls);
  expect(errors.errors).toEqual([]);
  expect(phoneErrors.errors).toEqual([]);
});
