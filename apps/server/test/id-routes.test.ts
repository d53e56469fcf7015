import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, createTestApp, sealStored, type TestApp } from "./helper.js";

/**
 * Every API route with a path parameter, called by company B's admin with company A's ids: each one
 * answers "not found" (403 where the route is for the platform's super user), and none of A's rows
 * changes. The table below maps each route's parameters to A's rows; a route missing from it fails
 * the test, so a new route is covered as soon as it exists. Beside the per-domain tenancy tests.
 */
let app: TestApp;
let a: Awaited<ReturnType<typeof buildTenant>>;
let b: Awaited<ReturnType<typeof buildTenant>>;
/** Company A's rows, one of each kind. */
const A = {} as {
  planId: number;
  queueId: number;
  tagId: number;
  contactId: number;
  whatsappId: number;
  officialWhatsappId: number;
  businessId: number;
  ticketId: number;
  ticketUuid: string;
  messageId: number;
  mediaMessageId: number;
  noteId: number;
  quickMessageId: number;
  scheduleId: number;
  importId: string;
  helpId: number;
  announcementId: number;
  chatId: number;
  keywordId: number;
  promptId: number;
  campaignId: number;
  costCenterId: number;
  officialNumberId: number;
  sandboxBusinessId: number;
  queueIntegrationId: number;
  smsTemplateId: number;
  emailTemplateId: number;
  pixTxid: string;
  smsCampaignId: number;
  smsSandboxMessageId: number;
  emailCampaignId: number;
  emailSenderId: number;
  uploadId: number;
};

type Method = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";
interface RouteCase {
  /** The value of each path parameter: one of company A's ids. */
  params: Record<string, () => string | number>;
  /** A body the route would accept for a row of B's own, so only the company scope can refuse it. */
  body?: Partial<Record<Method, () => unknown>>;
  /** Methods whose request is a file upload (multipart/form-data with a `file`). */
  upload?: Method[];
  /** 404 unless said otherwise. */
  status?: Partial<Record<Method, number>>;
  /** Why a route is not an ordinary company-scoped resource. */
  why?: string;
}

const SUPER_ONLY = 403;
const id = (key: keyof typeof A) => () => A[key] as string | number;

const ROUTES: Record<string, RouteCase> = {
  "/api/users/:id": {
    params: { id: () => a.user.id },
    body: { PUT: () => ({ name: "Hijacked", password: "hijacked1" }) },
    status: { DELETE: SUPER_ONLY },
    why: "only the super user deletes users (2-administration)",
  },
  "/api/companies/listPlan/:companyId": { params: { companyId: () => a.companyId } },
  "/api/companies/:id": {
    params: { id: () => a.companyId },
    body: { PUT: () => ({ name: "Hijacked Co" }) },
    status: { PUT: SUPER_ONLY, DELETE: SUPER_ONLY },
  },
  "/api/companies/:id/schedules": { params: { id: () => a.companyId }, body: { PUT: () => ({ schedules: [] }) } },
  "/api/companies/:id/time-zone": { params: { id: () => a.companyId }, body: { PUT: () => ({ timeZone: "America/Manaus" }) } },
  "/api/plans/:id": {
    params: { id: id("planId") },
    body: { PUT: () => ({ users: 1 }) },
    status: { GET: SUPER_ONLY, PUT: SUPER_ONLY, DELETE: SUPER_ONLY },
    why: "plans belong to the platform, not to a company",
  },
  "/api/helps/:id": {
    params: { id: id("helpId") },
    body: { PUT: () => ({ title: "Hijacked" }) },
    status: { GET: 200, PUT: SUPER_ONLY, DELETE: SUPER_ONLY },
    why: "help videos are shared by every company: anyone reads them, only the super user changes them",
  },
  "/api/announcements/:id": {
    params: { id: id("announcementId") },
    body: { PUT: () => ({ title: "Hijacked", text: "Hijacked" }) },
    status: { GET: 200, PUT: SUPER_ONLY, DELETE: SUPER_ONLY },
    why: "announcements are the platform's word to every company: anyone reads the active ones, only the super user changes them",
  },
  "/api/announcements/:id/media": { params: { id: id("announcementId") } },
  "/api/announcements/:id/media-upload": {
    params: { id: id("announcementId") },
    upload: ["POST"],
    status: { POST: SUPER_ONLY, DELETE: SUPER_ONLY },
    why: "only the super user changes an announcement's image",
  },
  "/api/chats/:id": { params: { id: id("chatId") }, body: { PUT: () => ({ title: "Hijacked", users: [b.admin.id] }) } },
  "/api/chats/:id/messages": { params: { id: id("chatId") }, body: { POST: () => ({ message: "Hijacked" }) } },
  "/api/chats/:id/read": { params: { id: id("chatId") }, body: { POST: () => ({ userId: b.admin.id }) } },
  "/api/keyword/:id": { params: { id: id("keywordId") }, body: { PUT: () => ({ word: "hijacked" }) } },
  // keyed by channel and address, not an id: B's admin naming A's listed address finds nothing of B's
  "/api/opt-outs/:channel/:address": { params: { channel: () => "email", address: () => "optout-a@cliente.test" } },
  "/api/prompt/:id": {
    params: { id: id("promptId") },
    body: { PUT: () => ({ name: "Hijacked", prompt: "Hijacked", apiKey: "sk-hijacked", queueId: A.queueId }) },
    status: { GET: SUPER_ONLY, PUT: SUPER_ONLY, DELETE: SUPER_ONLY },
    why: "AI prompts are the super user's page (1-core §6); another company's super user gets 404 (domains/prompts/prompts.test.ts)",
  },
  "/api/queueIntegration/:id": {
    params: { id: id("queueIntegrationId") },
    body: { PUT: () => ({ type: "webhook", name: "Hijacked", urlN8N: "https://example.com/hook" }) },
    status: { GET: SUPER_ONLY, PUT: SUPER_ONLY, DELETE: SUPER_ONLY },
    why: "super users only (the /queue-integration gate); another company's super gets 404 in queue-integrations.test.ts",
  },
  "/api/queue/:id": { params: { id: id("queueId") }, body: { PUT: () => ({ name: "Hijacked", color: "#000000" }) } },
  "/api/schedules/:id": { params: { id: id("scheduleId") }, body: { PUT: () => ({ body: "Hijacked" }) } },
  "/api/schedules/:id/media-upload": { params: { id: id("scheduleId") }, upload: ["POST"] },
  "/api/schedules/:id/media": { params: { id: id("scheduleId") } },
  "/api/contacts/import/:jobId": { params: { jobId: id("importId") } },
  "/api/ticket-tags/:ticketId/:tagId": { params: { ticketId: id("ticketId"), tagId: id("tagId") } },
  "/api/ticket-tags/:ticketId": { params: { ticketId: id("ticketId") } },
  "/api/whatsapp/:id": { params: { id: id("whatsappId") }, body: { PUT: () => ({ name: "Hijacked" }) } },
  "/api/whatsapp/:id/token": { params: { id: id("whatsappId") }, body: { POST: () => ({}) } },
  "/api/whatsappsession/:id": { params: { id: id("whatsappId") }, body: { POST: () => ({}) } },
  "/api/sandbox/:whatsappId/scan": { params: { whatsappId: id("whatsappId") } },
  "/api/sandbox/:whatsappId/inbound": { params: { whatsappId: id("whatsappId") }, body: { POST: () => ({ number: "5511988887777", body: "hi" }) } },
  "/api/sandbox/:whatsappId/outbox": { params: { whatsappId: id("whatsappId") } },
  "/api/sandbox/:whatsappId/read": { params: { whatsappId: id("whatsappId") }, body: { POST: () => ({}) } },
  "/api/contacts/:id": { params: { id: id("contactId") }, body: { PUT: () => ({ name: "Hijacked" }) } },
  "/api/contacts/:id/export": { params: { id: id("contactId") } },
  "/api/contacts/:id/erase": { params: { id: id("contactId") } },
  "/api/tags/:id": { params: { id: id("tagId") }, body: { PUT: () => ({ name: "Hijacked" }) } },
  "/api/quick-messages/:id": { params: { id: id("quickMessageId") }, body: { PUT: () => ({ shortcode: "hijacked", message: "Hijacked" }) } },
  "/api/quick-messages/:id/media": { params: { id: id("quickMessageId") } },
  "/api/upload/:id": { params: { id: id("uploadId") } },
  "/api/quick-messages/:id/media-upload": { params: { id: id("quickMessageId") }, upload: ["POST"] },
  "/api/tickets/:idOrUuid": { params: { idOrUuid: id("ticketUuid") } },
  "/api/tickets/:id": { params: { id: id("ticketId") }, body: { PUT: () => ({ status: "closed" }) } },
  "/api/tickets/:id/read": { params: { id: id("ticketId") } },
  "/api/messages/media/:messageId": { params: { messageId: id("mediaMessageId") } },
  "/api/messages/:ticketId": { params: { ticketId: id("ticketId") }, body: { POST: () => ({ body: "Hijacked" }) } },
  "/api/messages/:id": { params: { id: id("messageId") } },
  "/api/ticket-notes/:id": { params: { id: id("noteId") } },
  "/api/businesses/:id": { params: { id: id("businessId") }, body: { PUT: () => ({ name: "Hijacked" }) } },
  "/api/businesses/:id/sync": { params: { id: id("businessId") } },
  "/api/campaigns/:id": { params: { id: id("campaignId") } },
  "/api/campaigns/:id/recipients": { params: { id: id("campaignId") } },
  "/api/campaigns/:id/schedule": { params: { id: id("campaignId") }, body: { PUT: () => ({ scheduledAt: "2099-01-01T10:00" }) } },
  "/api/officialWhatsapp/:id": { params: { id: id("officialWhatsappId") }, body: { PUT: () => ({ active: false }) } },
  "/api/officialWhatsapp/ticket/:ticketId/templates": { params: { ticketId: id("ticketId") } },
  "/api/officialWhatsapp/ticket/:ticketId/template": { params: { ticketId: id("ticketId") }, body: { POST: () => ({ templateId: 1 }) } },
  "/api/sms/cost-center/:id": { params: { id: id("costCenterId") }, body: { PUT: () => ({ name: "Hijacked" }) } },
  "/api/phones/:id": { params: { id: id("officialNumberId") }, body: { PUT: () => ({ throughputPerSecond: 1 }) } },
  "/api/campaigns/:id/start": { params: { id: id("campaignId") } },
  "/api/campaigns/:id/pause": { params: { id: id("campaignId") } },
  "/api/sms/templates/:id": { params: { id: id("smsTemplateId") }, body: { PUT: () => ({ title: "Hijacked", content: "Hijacked" }) } },
  "/api/email/templates/:id": { params: { id: id("emailTemplateId") }, body: { PUT: () => ({ title: "Hijacked", subject: "Hijacked", content: "<p>Hijacked</p>" }) } },
  "/api/sandbox-businesses/:id/failure-rate": { params: { id: id("sandboxBusinessId") }, body: { PUT: () => ({ failureRate: 0.9 }) } },
  "/api/sms/campaigns/:id/": { params: { id: id("smsCampaignId") } },
  "/api/sms/campaigns/:id/pause/": { params: { id: id("smsCampaignId") } },
  "/api/sms/campaigns/:id/resume/": { params: { id: id("smsCampaignId") } },
  "/api/sms/campaigns/:id/trigger/": { params: { id: id("smsCampaignId") } },
  "/api/sms/campaigns/:id/cancel/": { params: { id: id("smsCampaignId") } },
  "/api/sms/campaigns/:id/file/": { params: { id: id("smsCampaignId") } },
  "/api/sms/sandbox/messages/:id/reply/": { params: { id: id("smsSandboxMessageId") }, body: { POST: () => ({ text: "SAIR" }) } },
  "/api/email/campaigns/:id": { params: { id: id("emailCampaignId") } },
  "/api/email/campaigns/:id/file": { params: { id: id("emailCampaignId") } },
  "/api/email/campaigns/:id/trigger": { params: { id: id("emailCampaignId") } },
  "/api/email/campaigns/:id/pause": { params: { id: id("emailCampaignId") } },
  "/api/email/campaigns/:id/resume": { params: { id: id("emailCampaignId") } },
  "/api/email/campaigns/:id/cancel": { params: { id: id("emailCampaignId") } },
  "/api/email/campaigns/:id/invalid-rows": { params: { id: id("emailCampaignId") } },
  "/api/sms/campaigns/:id/invalid-rows/": { params: { id: id("smsCampaignId") } },
  "/api/messages/email-campaigns/:id": { params: { id: id("emailCampaignId") }, status: { GET: 401 }, why: "the Messages API: a connection's token is the credential, a user's session token is refused (and its token sees only its own company's source-API campaigns)" },
  "/api/messages/email-campaigns/:id/file": { params: { id: id("emailCampaignId") }, status: { PUT: 401 }, why: "the Messages API: a connection's token is the credential, a user's session token is refused (and its token sees only its own company's source-API campaigns)" },
  "/api/messages/email-campaigns/:id/trigger": { params: { id: id("emailCampaignId") }, status: { POST: 401 }, why: "the Messages API: a connection's token is the credential, a user's session token is refused (and its token sees only its own company's source-API campaigns)" },
  "/api/messages/sms-campaigns/:id": { params: { id: id("smsCampaignId") }, status: { GET: 401 }, why: "the Messages API: a connection's token is the credential, a user's session token is refused (and its token sees only its own company's source-API campaigns)" },
  "/api/messages/sms-campaigns/:id/file": { params: { id: id("smsCampaignId") }, status: { PUT: 401 }, why: "the Messages API: a connection's token is the credential, a user's session token is refused (and its token sees only its own company's source-API campaigns)" },
  "/api/messages/sms-campaigns/:id/trigger": { params: { id: id("smsCampaignId") }, status: { POST: 401 }, why: "the Messages API: a connection's token is the credential, a user's session token is refused (and its token sees only its own company's source-API campaigns)" },
  "/api/email/senders/:id": { params: { id: id("emailSenderId") } },
  "/api/email/senders/:id/resend": { params: { id: id("emailSenderId") } },
};

/**
 * Routes whose path parameter is not a row id of a company: called all the same (A's rows must not
 * change), with the status they answer to B's admin.
 */
/** A pay link naming company A's first invoice (`cid` 1, `inv` 1), signed with no key of the server's. */
const FORGED_PAY_LINK = "eyJhbGciOiJIUzI1NiJ9.eyJ0eXAiOiJpbnZvaWNlLXBheSIsImNpZCI6MSwiaW52IjoxfQ.Zm9yZ2Vk";
const NOT_ROW_IDS: Record<string, RouteCase> = {
  "/api/settings/:key": {
    params: { key: () => "userRating" },
    body: { PUT: () => ({ value: "enabled" }) },
    status: { PUT: 200 },
    why: "a setting key names a setting of the actor's own company",
  },
  "/api/forgetpassword/:email": { params: { email: () => a.user.email }, status: { POST: 200 }, why: "public: answers alike for any address" },
  "/api/resetpasswords/:email/:token/:newPassword": {
    params: { email: () => a.user.email, token: () => "0000000000", newPassword: () => "hijacked1" },
    status: { POST: 400 },
    why: "public: the e-mailed token is the credential",
  },
  "/api/webhooks/whatsapp/:businessId": {
    params: { businessId: id("businessId") },
    body: { POST: () => ({ object: "whatsapp_business_account", entry: [] }) },
    status: { GET: 403, POST: 401 },
    why: "public: Meta's calls, authenticated by the business's verify token and app-secret signature",
  },
  "/api/pix/webhook/:secret": {
    params: { secret: () => "guessed-secret" },
    body: { POST: () => ({ pix: [{ endToEndId: "E00000000202611260000guess00001", txid: A.pixTxid, valor: "1.00" }] }) },
    why: "public: the PSP's calls, authenticated by the installation's secret in the path (and mTLS at the proxy)",
  },
  "/api/pix/webhook/:secret/pix": {
    params: { secret: () => "guessed-secret" },
    body: { POST: () => ({ pix: [{ endToEndId: "E00000000202611260000guess00002", txid: A.pixTxid, valor: "1.00" }] }) },
    why: "public: the BCB API appends /pix to the registered webhook URL",
  },
  "/api/public/invoices/:token": {
    params: { token: () => FORGED_PAY_LINK },
    why: "public: the signed pay link is the credential (billing/pay-link.ts); a forged one names no invoice",
  },
  "/api/public/invoices/:token/pix": {
    params: { token: () => FORGED_PAY_LINK },
    why: "public: the signed pay link is the credential; a forged one charges nothing",
  },
  "/api/pix/sandbox/charges/:txid": {
    params: { txid: () => A.pixTxid },
    status: { GET: 200 },
    why: "public, sandbox PSP only (never in production without ENABLE_SANDBOX): the random txid stands for the payer's bank app holding the QR code; read-only",
  },
};

/** A request as the web sends it: JSON, or a form with one small file for upload routes. */
async function call(method: Method, url: string, token: string, route: RouteCase) {
  if (!route.upload?.includes(method)) return app.api(method, url, { token, body: route.body?.[method]?.() });
  const form = new FormData();
  form.append("file", new Blob([Buffer.from("hijacked")], { type: "text/plain" }), "hijacked.txt");
  const encoded = new Request("http://form", { method: "POST", body: form });
  return app.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, "content-type": encoded.headers.get("content-type")! },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
}

async function seedCompanyA(): Promise<void> {
  const one = <T>(text: string, params: unknown[]) => app.sql.one<T>(text, params);
  const c = a.companyId;
  A.planId = (await one<{ plan_id: number }>("SELECT plan_id FROM companies WHERE id = $1", [c])).plan_id;
  A.queueId = await buildQueue(app.sql, c);
  A.whatsappId = (await one<{ id: number }>("INSERT INTO whatsapps (company_id, name) VALUES ($1, 'Loja A') RETURNING id", [c])).id;
  A.contactId = (await one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Maria A', '5511900000001') RETURNING id", [c])).id;
  A.tagId = (await one<{ id: number }>("INSERT INTO tags (company_id, name, kanban) VALUES ($1, 'Lane A', 1) RETURNING id", [c])).id;
  const ticket = await one<{ id: number; uuid: string }>(
    `INSERT INTO tickets (company_id, contact_id, whatsapp_id, queue_id, user_id, status) VALUES ($1, $2, $3, $4, $5, 'open') RETURNING id, uuid`,
    [c, A.contactId, A.whatsappId, A.queueId, a.user.id],
  );
  A.ticketId = ticket.id;
  A.ticketUuid = ticket.uuid;
  await app.sql.exec("INSERT INTO ticket_tags (company_id, ticket_id, tag_id) VALUES ($1, $2, $3)", [c, A.ticketId, A.tagId]);
  const message = (fields: string, values: unknown[]) =>
    one<{ id: number }>(
      `INSERT INTO messages (company_id, ticket_id, contact_id, whatsapp_id, body, from_me${fields}) VALUES ($1, $2, $3, $4, 'Olá', true${values.map((_, i) => `, $${i + 5}`).join("")}) RETURNING id`,
      [c, A.ticketId, A.contactId, A.whatsappId, ...values],
    );
  A.messageId = Number((await message("", [])).id);
  A.mediaMessageId = Number((await message(", media_type, media_path, media_name, mimetype", ["image", "a/photo.png", "photo.png", "image/png"])).id);
  A.noteId = (await one<{ id: number }>("INSERT INTO ticket_notes (company_id, ticket_id, contact_id, user_id, note) VALUES ($1, $2, $3, $4, 'Nota A') RETURNING id", [
    c,
    A.ticketId,
    A.contactId,
    a.user.id,
  ])).id;
  A.quickMessageId = (await one<{ id: number }>(
    "INSERT INTO quick_messages (company_id, user_id, shortcode, message, media_path, media_name) VALUES ($1, $2, 'oi', 'Olá', 'a/qm.png', 'qm.png') RETURNING id",
    [c, a.admin.id],
  )).id;
  A.uploadId = Number((await one<{ id: string }>(
    "INSERT INTO uploads (company_id, storage_key, file_name, mimetype, size, user_id) VALUES ($1, $2, 'logo.png', 'image/png', 70, $3) RETURNING id::text",
    [c, `${c}/2026-01/a.png`, a.admin.id],
  )).id);
  A.scheduleId = (await one<{ id: number }>(
    "INSERT INTO schedules (company_id, body, send_at, contact_id, whatsapp_id, user_id, media_path, media_name) VALUES ($1, 'Agendada', '2099-01-01T12:00:00Z', $2, $3, $4, 'a/s.png', 's.png') RETURNING id",
    [c, A.contactId, A.whatsappId, a.admin.id],
  )).id;
  A.importId = (await one<{ id: string }>("INSERT INTO contact_imports (company_id, user_id, status) VALUES ($1, $2, 'done') RETURNING id", [c, a.admin.id])).id;
  A.businessId = (await one<{ id: number }>(
    "INSERT INTO businesses (company_id, name, waba_id, access_token, app_secret, verify_token) VALUES ($1, 'WABA A', 'waba-a', '', '', '') RETURNING id",
    [c],
  )).id;
  await sealStored(app.sql, app.ctx.secrets, "businesses", A.businessId, { access_token: "token-a", app_secret: "secret-a", verify_token: "verify-a" });
  A.officialWhatsappId = (await one<{ id: number }>(
    "INSERT INTO whatsapps (company_id, name, provider, is_official, status) VALUES ($1, 'Oficial A', 'official', true, 'CONNECTED') RETURNING id",
    [c],
  )).id;
  A.officialNumberId = (await one<{ id: number }>(
    "INSERT INTO official_numbers (company_id, whatsapp_id, business_id, phone_number_id, phone_number) VALUES ($1, $2, $3, 'pn-a', '5511900000009') RETURNING id",
    [c, A.officialWhatsappId, A.businessId],
  )).id;
  A.costCenterId = (await one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, 'Centro A') RETURNING id", [c])).id;
  A.smsTemplateId = (await one<{ id: number }>("INSERT INTO sms_templates (company_id, title, content) VALUES ($1, 'SMS A', 'Oi {{nome}}') RETURNING id", [c])).id;
  A.emailTemplateId = (await one<{ id: number }>(
    "INSERT INTO email_templates (company_id, title, subject, content) VALUES ($1, 'E-mail A', 'Assunto A', '<p>A</p>') RETURNING id",
    [c],
  )).id;
  await app.sql.exec("INSERT INTO sent_emails (company_id, user_id, sender, subject, message, status) VALUES ($1, $2, 'a@cliente.test', 'A', 'A', 'sent')", [c, a.admin.id]);
  const invoiceId = (await one<{ id: number }>("INSERT INTO invoices (company_id, due_date, recurrence, detail, value) VALUES ($1, '2099-12-31', 'MENSAL', 'Plano A', 10) RETURNING id", [c])).id;
  A.pixTxid = "idRoutesTxid00000000000000000000A";
  await app.sql.exec("INSERT INTO pix_sandbox_charges (txid, amount, chave, expires_at) VALUES ($1, 10, 'sandbox@atende.local', now() + interval '1 hour')", [A.pixTxid]);
  await app.sql.exec("INSERT INTO pix_charges (company_id, invoice_id, txid, amount, brcode, expires_at) VALUES ($1, $2, $3, 10, '000201', now() + interval '1 hour')", [c, invoiceId, A.pixTxid]);
  A.helpId = (await one<{ id: number }>("INSERT INTO helps (title) VALUES ('Ajuda') RETURNING id", [])).id;
  A.chatId = (await one<{ id: number }>("INSERT INTO chats (company_id, owner_id, title) VALUES ($1, $2, 'Conversa A') RETURNING id", [c, a.admin.id])).id;
  await app.sql.exec("INSERT INTO chat_users (company_id, chat_id, user_id) VALUES ($1, $2, $3), ($1, $2, $4)", [c, A.chatId, a.admin.id, a.user.id]);
  await app.sql.exec("INSERT INTO chat_messages (company_id, chat_id, sender_id, message) VALUES ($1, $2, $3, 'Olá')", [c, A.chatId, a.admin.id]);
  await app.sql.exec("INSERT INTO opt_outs (company_id, channel, address, source) VALUES ($1, 'email', 'optout-a@cliente.test', 'unsubscribe')", [c]);
  A.keywordId = (await one<{ id: number }>("INSERT INTO keywords (company_id, word, word_key) VALUES ($1, 'Golpe', 'golpe') RETURNING id", [c])).id;
  A.promptId = (await one<{ id: number }>("INSERT INTO prompts (company_id, name, prompt, api_key, queue_id) VALUES ($1, 'Bot A', 'Seja gentil', 'v1:x:y:z', $2) RETURNING id", [c, A.queueId])).id;
  A.queueIntegrationId = (await one<{ id: number }>(
    "INSERT INTO queue_integrations (company_id, type, name, url_n8n) VALUES ($1, 'webhook', 'Bot A', 'https://example.com/a') RETURNING id",
    [c],
  )).id;
  A.announcementId = (await one<{ id: number }>("INSERT INTO announcements (company_id, title, text) VALUES ($1, 'Aviso', 'Texto') RETURNING id", [c])).id;
  A.campaignId = (await one<{ id: number }>(
    "INSERT INTO campaigns (company_id, name, cost_center_id, business_id, queue_id, status, scheduled_at) VALUES ($1, 'Campanha A', $2, $3, $4, 'READY', '2099-01-01T12:00:00Z') RETURNING id",
    [c, A.costCenterId, A.businessId, A.queueId],
  )).id;
  await app.sql.exec(
    "INSERT INTO campaign_recipients (company_id, campaign_id, row_number, phone) VALUES ($1, $2, 1, '5511900000010')",
    [c, A.campaignId],
  );
  const smsTemplateId = (await one<{ id: number }>("INSERT INTO sms_templates (company_id, title, content) VALUES ($1, 'Aviso A', 'Olá') RETURNING id", [c])).id;
  A.smsCampaignId = (await one<{ id: number }>(
    "INSERT INTO sms_campaigns (company_id, title, status, cost_center_id, template_id, template_content, file_name) VALUES ($1, 'SMS A', 'READY', $2, $3, 'Olá', 'a.csv') RETURNING id",
    [c, A.costCenterId, smsTemplateId],
  )).id;
  await app.sql.exec("INSERT INTO sms_campaign_recipients (company_id, campaign_id, row_number, phone, state) VALUES ($1, $2, 1, '5511900000011', 'sent')", [c, A.smsCampaignId]);
  A.smsSandboxMessageId = (await one<{ id: number }>(
    "INSERT INTO sms_sandbox_messages (company_id, sid, to_number, body, segments, status, outcome) VALUES ($1, 'SMa', '5511900000011', 'Olá', 1, 'delivered', 'delivered') RETURNING id",
    [c],
  )).id;
  A.emailSenderId = (await one<{ id: number }>("INSERT INTO email_senders (company_id, email_address) VALUES ($1, 'a@loja.test') RETURNING id", [c])).id;
  const emailTemplateId = (await one<{ id: number }>("INSERT INTO email_templates (company_id, title, subject, content) VALUES ($1, 'T', 'S', '<p>x</p>') RETURNING id", [c])).id;
  A.emailCampaignId = (await one<{ id: number }>(
    `INSERT INTO email_campaigns (company_id, title, status, cost_center_id, sender_id, from_address, template_id, subject, html)
     VALUES ($1, 'E-mail A', 'ACTIVE', $2, $3, 'a@loja.test', $4, 'S', '<p>x</p>') RETURNING id`,
    [c, A.costCenterId, A.emailSenderId, emailTemplateId],
  )).id;
  await app.sql.exec("INSERT INTO email_campaign_recipients (company_id, campaign_id, row_number, email, state) VALUES ($1, $2, 1, 'x@y.test', 'pending')", [c, A.emailCampaignId]);
  A.sandboxBusinessId = (await one<{ id: number }>(
    "INSERT INTO businesses (company_id, name, waba_id, access_token, app_secret, verify_token, sandbox) VALUES ($1, 'Sandbox A', 'sandbox-a', '', '', '', true) RETURNING id",
    [c],
  )).id;
}

/** Every row of company A (and the platform rows A uses), as JSON, to compare before and after. */
const COMPANY_TABLES = [
  "users",
  "user_queues",
  "queues",
  "settings",
  "whatsapps",
  "whatsapp_queues",
  "contacts",
  "tags",
  "quick_messages",
  "tickets",
  "messages",
  "ticket_tags",
  "ticket_notes",
  "schedules",
  "contact_imports",
  "businesses",
  "official_numbers",
  "announcements",
  "chats",
  "chat_users",
  "chat_messages",
  "keywords",
  "prompts",
  "cost_centers",
  "campaigns",
  "campaign_recipients",
  "queue_integrations",
  "sms_templates",
  "email_templates",
  "sent_emails",
  "invoices",
  "pix_charges",
  "pix_payments",
  "invoice_reminders",
  "sms_campaigns",
  "sms_campaign_recipients",
  "sms_sandbox_messages",
  "sms_short_links",
  "opt_outs",
  "email_senders",
  "email_campaigns",
  "email_campaign_recipients",
  "email_sandbox_messages",
  "audit_log",
];
async function snapshotA(): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  for (const table of COMPANY_TABLES) {
    rows[table] = (await app.sql.many<{ row: unknown }>(`SELECT to_jsonb(t) AS row FROM ${table} t WHERE company_id = $1 ORDER BY to_jsonb(t)::text`, [a.companyId])).map(
      (r) => r.row,
    );
  }
  rows.company = await app.sql.many("SELECT to_jsonb(c) AS row FROM companies c WHERE id = $1", [a.companyId]);
  rows.plan = await app.sql.many("SELECT to_jsonb(p) AS row FROM plans p WHERE id = $1", [A.planId]);
  rows.help = await app.sql.many("SELECT to_jsonb(h) AS row FROM helps h WHERE id = $1", [A.helpId]);
  return rows;
}

beforeAll(async () => {
  app = await createTestApp();
  a = await buildTenant(app);
  b = await buildTenant(app);
  await seedCompanyA();
});
afterAll(async () => {
  await app.close();
});

describe("every :id route refuses another company's ids", () => {
  it("maps every route with a path parameter (a new route must be added to the table)", () => {
    const urls = new Set(app.routes.filter((r) => r.url.includes("/:")).map((r) => r.url));
    const unmapped = [...urls].filter((url) => !(url in ROUTES) && !(url in NOT_ROW_IDS));
    const stale = [...Object.keys(ROUTES), ...Object.keys(NOT_ROW_IDS)].filter((url) => !urls.has(url));
    expect(unmapped).toEqual([]);
    expect(stale).toEqual([]);
  });

  it("answers B's admin with not found (or super-only) for A's ids, and leaves A's rows as they were", async () => {
    const before = await snapshotA();
    const wrong: string[] = [];
    for (const { method, url } of app.routes) {
      const route = ROUTES[url] ?? NOT_ROW_IDS[url];
      if (!route) continue;
      const m = method as Method;
      const path = url.replace(/:([A-Za-z]+)/g, (_, name: string) => {
        const value = route.params[name];
        if (!value) throw new Error(`${url}: no value for :${name}`);
        return encodeURIComponent(String(value()));
      });
      const res = await call(m, path, b.admin.token, route);
      const expected = route.status?.[m] ?? 404;
      if (res.statusCode !== expected) wrong.push(`${m} ${path} → ${res.statusCode} (expected ${expected}) ${res.body.slice(0, 160)}`);
    }
    const after = await snapshotA();
    expect(wrong).toEqual([]);
    expect(after).toEqual(before);
  }, 120_000);
});
