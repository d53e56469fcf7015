import { createHash, createHmac, randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import multipart from "@fastify/multipart";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { request } from "undici";
import type { GraphErrorAnswer } from "./errors.js";
import { checkTemplateSend, type FakeTemplate } from "./template-send.js";
import { statusDelivery, type FakeStatus, type QueuedStatus, type StatusPlan } from "./status-webhooks.js";

/**
 * A local stand-in for Meta's Graph API (WhatsApp Cloud API), speaking its documented request and
 * response shapes: phone numbers and templates of a WABA (paged with cursors), message sends, media
 * upload and the two-step media download, with bearer-token checks and Graph's error body. It also
 * plays Meta's side of webhooks: payloads signed with X-Hub-Signature-256 (HMAC-SHA256 of the raw body
 * with the app secret), posted to the app's callback URL.
 */

export interface FakePhone {
  id: string;
  display_phone_number: string;
  verified_name: string;
  quality_rating: string;
  messaging_limit_tier: string;
  status: string;
  name_status?: string;
  code_verification_status?: string;
  health_status?: { can_send_message: string; entities?: { entity_type: string; id: string; can_send_message: string; errors?: { error_code: number; error_description: string; possible_solution?: string }[] }[] };
}

export interface SentRequest {
  phoneNumberId: string;
  body: Record<string, unknown> & { to?: string; recipient?: string; type?: string; status?: string; message_id?: string };
  messageId: string | null;
  /** When the request arrived (the first hook of the fake's server, Date.now()). */
  at: number;
}

export interface Upload {
  id: string;
  phoneNumberId: string;
  fileName: string;
  mimetype: string;
  type: string;
  messagingProduct: string;
  data: Buffer;
}

interface StoredMedia {
  data: Buffer;
  mimeType: string;
}

export interface FakeGraphOptions {
  accessToken?: string;
  appSecret?: string;
  wabaId?: string;
  /** Items per page of the paged edges (small, so paging is exercised). */
  pageSize?: number;
}

function graphError(reply: FastifyReply, status: number, code: number, message: string, details = "") {
  return reply.status(status).send({
    error: {
      message,
      type: code === 190 ? "OAuthException" : "OAuthException",
      code,
      error_data: { messaging_product: "whatsapp", details },
      fbtrace_id: randomBytes(8).toString("base64url"),
    },
  });
}

/** The API version in the fake's base URL (`url`), as in https://graph.facebook.com/v23.0; any vNN.N path answers. */
export const GRAPH_VERSION = "v23.0";

export const newWamid = () => `wamid.${randomBytes(24).toString("base64url")}`;

export class FakeGraph {
  readonly accessToken: string;
  readonly appSecret: string;
  readonly wabaId: string;
  readonly pageSize: number;
  url = "";
  /** The fake's origin without a version (what WHATSAPP_GRAPH_URL holds). */
  host = "";
  phones: FakePhone[] = [];
  templates: FakeTemplate[] = [];
  account = { id: "", name: "Conta Oficial", account_review_status: "APPROVED" };
  readonly media = new Map<string, StoredMedia>();
  readonly sent: SentRequest[] = [];
  readonly uploads: Upload[] = [];
  /** Recipients whose 24-hour window Meta considers closed (error 131047 on free-form sends). */
  readonly windowClosedFor = new Set<string>();
  /**
   * WhatsApp's own id of a number, when it is not the number as sent: an older Brazilian mobile is
   * answered as its 8-digit form (`contacts[0].wa_id` of the send response), as Meta does.
   */
  readonly waIds = new Map<string, string>();
  /** Every phone number id ever listed (numbers replaced in `phones` can still send). */
  readonly knownPhones = new Map<string, FakePhone>();
  /** WABAs the app subscribed to (POST /{waba-id}/subscribed_apps): their webhooks reach the app. */
  readonly subscribedWabas = new Set<string>();
  /** Sends to a number that the fake answers with an error: the next `count` sends, one answer each. */
  private readonly failing = new Map<string, GraphErrorAnswer[]>();
  /** Every refused send (the error answered), for assertions. */
  readonly refusals: { to: string; code: number }[] = [];
  /** Every request path seen (method + path), for assertions. */
  readonly requests: string[] = [];
  private app: FastifyInstance | null = null;
  /** When set, every accepted message gets its status webhooks (sent, delivered, read) posted to the app. */
  statusPlan: StatusPlan | null = null;
  /** Recipients whose messages Meta accepts and then reports failed (a `failed` status with this error). */
  readonly failedStatusFor = new Map<string, { code: number; title: string; details: string }>();
  /** Status deliveries posted and the answers that were not 200 (for assertions). */
  statusDeliveries = 0;
  readonly statusRefusals: { status: number; text: string }[] = [];
  private statusQueue: { due: number; s: QueuedStatus }[] = [];
  private statusTimer: NodeJS.Timeout | null = null;
  private statusPosting: Promise<void> = Promise.resolve();

  private constructor(o: FakeGraphOptions) {
    this.accessToken = o.accessToken ?? `EAAG${randomBytes(16).toString("hex")}`;
    this.appSecret = o.appSecret ?? randomBytes(16).toString("hex");
    this.wabaId = o.wabaId ?? String(100000000000000 + Math.floor(Math.random() * 1e12));
    this.pageSize = o.pageSize ?? 2;
    this.account.id = this.wabaId;
  }

  static async start(o: FakeGraphOptions = {}): Promise<FakeGraph> {
    const fake = new FakeGraph(o);
    await fake.listen();
    return fake;
  }

  /** Stores a file as if a customer had sent it; returns its media id. */
  addMedia(data: Buffer, mimeType: string): string {
    const id = String(Date.now()) + String(Math.floor(Math.random() * 1e6));
    this.media.set(id, { data, mimeType });
    return id;
  }

  /** Answers the next `count` message sends to `to` (text, media or template) with `error` (test/fake-graph/errors.ts). */
  failNext(to: string, count: number, error: GraphErrorAnswer): void {
    const queue = this.failing.get(to) ?? [];
    for (let i = 0; i < count; i++) queue.push(error);
    this.failing.set(to, queue);
  }

  /** The messages (not read receipts) sent to one number. */
  messagesTo(to: string): SentRequest[] {
    return this.sent.filter((s) => (s.body.to === to || s.body.recipient === to) && !s.body.status);
  }

  sign(raw: string | Buffer, secret = this.appSecret): string {
    return `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;
  }

  /** Posts a webhook delivery as Meta does: JSON body, signed unless told otherwise. */
  async deliver(callbackUrl: string, payload: unknown, o: { signature?: string | null; raw?: string } = {}): Promise<{ status: number; text: string }> {
    const raw = o.raw ?? JSON.stringify(payload);
    const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "facebookexternalua" };
    const signature = o.signature === undefined ? this.sign(raw) : o.signature;
    if (signature !== null) headers["x-hub-signature-256"] = signature;
    // undici's request (a quarter of fetch's CPU): at a thousand statuses a second the fake's own CPU
    // would be taken from the server it measures
    const res = await request(callbackUrl, { method: "POST", headers, body: raw });
    return { status: res.statusCode, text: await res.body.text() };
  }

  /** A listed phone number (current or listed before), by its id. */
  phone(id: string): FakePhone | undefined {
    return this.phones.find((p) => p.id === id) ?? this.knownPhones.get(id);
  }

  private authorized(request: FastifyRequest): boolean {
    return request.headers.authorization === `Bearer ${this.accessToken}`;
  }

  private page<T>(request: FastifyRequest, path: string, items: T[]) {
    const q = request.query as Record<string, string>;
    const limit = Math.min(Number(q.limit ?? this.pageSize) || this.pageSize, this.pageSize);
    const start = q.after ? Number(Buffer.from(q.after, "base64url").toString()) : 0;
    const data = items.slice(start, start + limit);
    const end = start + data.length;
    const cursors = { before: Buffer.from(String(start)).toString("base64url"), after: Buffer.from(String(end)).toString("base64url") };
    const paging: Record<string, unknown> = { cursors };
    if (end < items.length) {
      const next = new URL(`${this.url}/${path}`);
      for (const [k, v] of Object.entries(q)) if (k !== "after") next.searchParams.set(k, v);
      next.searchParams.set("after", cursors.after);
      paging.next = next.toString();
    }
    return { data, paging };
  }

  private async listen(): Promise<void> {
    const app = Fastify({ logger: false, bodyLimit: 110 * 1024 * 1024 });
    await app.register(multipart, { limits: { fileSize: 110 * 1024 * 1024 } });
    app.addHook("onRequest", async (request, reply) => {
      (request as FastifyRequest & { arrivedAt?: number }).arrivedAt = Date.now();
      this.requests.push(`${request.method} ${request.url.split("?")[0]}`);
      if (!this.authorized(request)) {
        return graphError(reply, 401, 190, "Invalid OAuth access token - Cannot parse access token");
      }
    });

    await app.register(
      async (g) => {
        g.addHook("onRequest", async (request, reply) => {
          const { version } = request.params as { version?: string };
          if (!/^v\d+\.\d+$/.test(version ?? "")) return graphError(reply, 400, 2500, `Unknown path components: /${version}`);
        });
        g.get("/:wabaId/phone_numbers", async (request, reply) => {
          const { wabaId } = request.params as { wabaId: string };
          if (wabaId !== this.wabaId) return graphError(reply, 400, 100, `Unsupported get request. Object with ID '${wabaId}' does not exist`);
          for (const p of this.phones) this.knownPhones.set(p.id, p);
          return this.page(request, `${wabaId}/phone_numbers`, this.phones);
        });

        // Meta answers {"success": true} (WhatsApp Cloud API, "Subscribe to a WhatsApp Business Account").
        g.post("/:wabaId/subscribed_apps", async (request, reply) => {
          const { wabaId } = request.params as { wabaId: string };
          if (wabaId !== this.wabaId) return graphError(reply, 400, 100, `Unsupported post request. Object with ID '${wabaId}' does not exist`);
          this.subscribedWabas.add(wabaId);
          return { success: true };
        });
        g.get("/:wabaId/message_templates", async (request, reply) => {
          const { wabaId } = request.params as { wabaId: string };
          if (wabaId !== this.wabaId) return graphError(reply, 400, 100, `Unsupported get request. Object with ID '${wabaId}' does not exist`);
          return this.page(request, `${wabaId}/message_templates`, this.templates);
        });

        g.get("/media-download/:mediaId", async (request, reply) => {
          const m = this.media.get((request.params as { mediaId: string }).mediaId);
          if (!m) return reply.status(404).send("not found");
          return reply.type(m.mimeType).send(m.data);
        });

        g.get("/:id", async (request, reply) => {
          const { id } = request.params as { id: string };
          if (id === this.wabaId) return this.account;
          const phone = this.phone(id);
          if (phone) {
            const fields = String((request.query as Record<string, string>).fields ?? "id,display_phone_number,verified_name").split(",");
            return Object.fromEntries(Object.entries(phone).filter(([k]) => k === "id" || fields.includes(k)));
          }
          const media = this.media.get(id);
          if (media) {
            return {
              messaging_product: "whatsapp",
              url: `${this.url}/media-download/${id}`,
              mime_type: media.mimeType,
              sha256: createHash("sha256").update(media.data).digest("hex"),
              file_size: media.data.length,
              id,
            };
          }
          return graphError(reply, 400, 100, `Unsupported get request. Object with ID '${id}' does not exist`);
        });

        g.post("/:phoneNumberId/messages", async (request, reply) => {
          const { phoneNumberId } = request.params as { phoneNumberId: string };
          if (!this.phone(phoneNumberId)) return graphError(reply, 400, 100, "Invalid parameter");
          const body = (request.body ?? {}) as SentRequest["body"];
          if (body.messaging_product !== "whatsapp") return graphError(reply, 400, 100, "The parameter messaging_product is required.");
          if (body.status === "read") {
            this.sent.push({ phoneNumberId, body, messageId: null, at: Date.now() });
            return { success: true };
          }
          // a phone number in `to`, or a business-scoped user id in `recipient` (a user known only by it)
          const recipient = typeof body.recipient === "string" && !body.to ? body.recipient : null;
          if (recipient !== null && !/^[A-Z]{2}\.(ENT\.)?[A-Za-z0-9]{1,128}$/.test(recipient)) {
            return graphError(reply, 400, 131009, "Parameter value is not valid", "Invalid recipient");
          }
          const to = recipient ?? String(body.to ?? "").replace(/^\+/, "");
          if (recipient === null && !/^\d{8,15}$/.test(to)) return graphError(reply, 400, 131009, "Parameter value is not valid", "Invalid phone number");
          const failure = this.failing.get(to)?.shift();
          if (failure) {
            this.refusals.push({ to, code: failure.body.error.code });
            return reply.status(failure.status).send({ error: { ...failure.body.error, fbtrace_id: randomBytes(8).toString("base64url") } });
          }
          const type = String(body.type ?? "text");
          if (!(type in body) && type !== "text") return graphError(reply, 400, 100, `Param ${type} is required`);
          if (type === "text" && typeof (body.text as { body?: unknown } | undefined)?.body !== "string") {
            return graphError(reply, 400, 100, "Param text['body'] is required");
          }
          if (type === "template") {
            const refused = checkTemplateSend(this.templates, body.template);
            if (refused) return graphError(reply, 400, refused.code, refused.message);
          }
          if (type !== "template" && this.windowClosedFor.has(to)) {
            return graphError(reply, 400, 131047, "Re-engagement message", "Message failed to send because more than 24 hours have passed since the customer last replied to this number.");
          }
          const messageId = newWamid();
          this.sent.push({ phoneNumberId, body, messageId, at: (request as FastifyRequest & { arrivedAt?: number }).arrivedAt ?? Date.now() });
          this.planStatuses(phoneNumberId, messageId, to, body.biz_opaque_callback_data);
          const contact = recipient ? { input: recipient, user_id: recipient } : { input: String(body.to), wa_id: this.waIds.get(to) ?? to };
          return { messaging_product: "whatsapp", contacts: [contact], messages: [{ id: messageId }] };
        });

        g.post("/:phoneNumberId/media", async (request, reply) => {
          const { phoneNumberId } = request.params as { phoneNumberId: string };
          if (!request.isMultipart()) return graphError(reply, 400, 100, "multipart/form-data required");
          const fields: Record<string, string> = {};
          let file: { fileName: string; mimetype: string; data: Buffer } | null = null;
          for await (const part of request.parts()) {
            if (part.type === "file") file = { fileName: part.filename, mimetype: part.mimetype, data: await part.toBuffer() };
            else fields[part.fieldname] = String(part.value);
          }
          if (fields.messaging_product !== "whatsapp" || !file) return graphError(reply, 400, 100, "Param file and messaging_product are required");
          const id = this.addMedia(file.data, fields.type ?? file.mimetype);
          this.uploads.push({ id, phoneNumberId, fileName: file.fileName, mimetype: file.mimetype, type: fields.type ?? "", messagingProduct: fields.messaging_product, data: file.data });
          return { id };
        });
      },
      { prefix: "/:version" },
    );

    await app.listen({ port: 0, host: "127.0.0.1" });
    this.host = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    this.url = `${this.host}/${GRAPH_VERSION}`;
    this.app = app;
  }

  /** Queues the accepted message's status webhooks (statusPlan): sent, delivered, read, or sent then failed. */
  private planStatuses(phoneNumberId: string, wamid: string, to: string, callbackData: unknown): void {
    const plan = this.statusPlan;
    if (!plan) return;
    const phone = this.phone(phoneNumberId);
    const error = this.failedStatusFor.get(to);
    const steps: FakeStatus[] = error ? ["sent", "failed"] : ["sent", "delivered", "read"];
    const step = plan.stepMs ?? 50;
    steps.forEach((status, i) =>
      this.statusQueue.push({
        due: Date.now() + step * (i + 1),
        s: {
          phoneNumberId,
          displayPhoneNumber: phone?.display_phone_number ?? "",
          wamid,
          to,
          status,
          callbackData: typeof callbackData === "string" ? callbackData : undefined,
          ...(status === "failed" && error ? { error } : {}),
        },
      }),
    );
    this.statusTimer ??= setInterval(() => this.flushStatuses(), 25);
  }

  private flushStatuses(): void {
    const plan = this.statusPlan;
    const now = Date.now();
    const due = this.statusQueue.filter((q) => q.due <= now);
    if (!due.length || !plan) return;
    this.statusQueue = this.statusQueue.filter((q) => q.due > now);
    const per = plan.perDelivery ?? 100;
    const byPhone = new Map<string, QueuedStatus[]>();
    for (const { s } of due) byPhone.set(s.phoneNumberId, [...(byPhone.get(s.phoneNumberId) ?? []), s]);
    const batches: QueuedStatus[][] = [];
    for (const list of byPhone.values()) for (let i = 0; i < list.length; i += per) batches.push(list.slice(i, i + per));
    // one delivery after the other, in order (a later status never overtakes an earlier one)
    this.statusPosting = this.statusPosting.then(async () => {
      for (const batch of batches) {
        try {
          const res = await this.deliver(plan.callbackUrl, statusDelivery(this.wabaId, batch));
          this.statusDeliveries++;
          if (res.status !== 200) this.statusRefusals.push(res);
        } catch (err) {
          this.statusRefusals.push({ status: 0, text: String(err) });
        }
      }
    });
  }

  /** Waits until every queued status has been posted. */
  async statusesSettled(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.statusQueue.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    await this.statusPosting;
  }

  async close(): Promise<void> {
    if (this.statusTimer) clearInterval(this.statusTimer);
    await this.app?.close();
  }
}
