import { createHash } from "node:crypto";
import { request as undiciRequest } from "undici";

/** Meta's error object, as the Graph API answers it (Graph API "Handling errors"; Cloud API error codes). */
export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  /** Meta's hint that the same request may succeed later. */
  is_transient?: boolean;
  error_data?: { messaging_product?: string; details?: string };
  fbtrace_id?: string;
}

/** Meta's error body: `{ error: { message, type, code, error_subcode, is_transient, error_data, fbtrace_id } }`, with the HTTP status. */
export class GraphError extends Error {
  readonly subcode: number | null;
  readonly type: string;
  readonly isTransient: boolean;
  readonly fbtraceId: string;

  constructor(
    readonly status: number,
    readonly code: number | null,
    message: string,
    readonly details = "",
    extra: { subcode?: number | null; type?: string; isTransient?: boolean; fbtraceId?: string } = {},
  ) {
    super(message);
    this.subcode = extra.subcode ?? null;
    this.type = extra.type ?? "";
    this.isTransient = extra.isTransient ?? false;
    this.fbtraceId = extra.fbtraceId ?? "";
  }

  /** The error a non-2xx answer carries (an answer without Meta's error object keeps its HTTP status). */
  static fromBody(status: number, e: GraphErrorBody | undefined): GraphError {
    return new GraphError(status, typeof e?.code === "number" ? e.code : null, e?.message ?? `Graph HTTP ${status}`, e?.error_data?.details ?? "", {
      subcode: typeof e?.error_subcode === "number" ? e.error_subcode : null,
      type: e?.type ?? "",
      isTransient: e?.is_transient === true,
      fbtraceId: e?.fbtrace_id ?? "",
    });
  }
}

/** The request never reached Meta or never came back (network, timeout). */
export class GraphUnavailable extends Error {}

export interface GraphPhoneNumber {
  id: string;
  display_phone_number?: string;
  verified_name?: string;
  quality_rating?: string;
  messaging_limit_tier?: string;
  status?: string;
  name_status?: string;
  code_verification_status?: string;
  health_status?: { can_send_message?: string; entities?: { entity_type?: string; can_send_message?: string; errors?: GraphHealthError[] }[] };
}
export interface GraphHealthError {
  error_code?: number | string;
  error_description?: string;
}

export interface GraphTemplateComponent {
  type: string;
  format?: string;
  text?: string;
  buttons?: { type: string; text?: string; url?: string; example?: unknown }[];
  example?: unknown;
}
export interface GraphTemplate {
  id: string;
  name: string;
  language: string;
  category?: string;
  status?: string;
  /** NAMED ({{first_name}}) or POSITIONAL ({{1}}); Meta omits it on older templates (positional). */
  parameter_format?: string;
  components?: GraphTemplateComponent[];
  rejected_reason?: string;
}

export const PHONE_FIELDS = "id,display_phone_number,verified_name,quality_rating,messaging_limit_tier,status,name_status,code_verification_status,health_status";
const MAX_PAGES = 50;
/** WhatsApp's largest media (documents). */
export const MAX_MEDIA_BYTES = 100 * 1024 * 1024;

/**
 * A small client of the Graph HTTP API for one access token. `baseUrl` is WHATSAPP_GRAPH_URL
 * (https://graph.facebook.com/vNN.N by default, a local fake in tests).
 */
export class GraphClient {
  private readonly base: string;
  private readonly origin: string;

  constructor(
    baseUrl: string,
    private readonly accessToken: string,
    private readonly timeoutMs = 20_000,
  ) {
    this.base = baseUrl.replace(/\/+$/, "");
    this.origin = new URL(this.base).origin;
  }

  /**
   * A JSON call on undici's keep-alive pool: `request` costs a quarter of `fetch`'s CPU per call, and
   * a campaign sends hundreds a second. Redirects are not followed (a 3xx is an error below).
   */
  private async call(url: string, method: "GET" | "POST" = "GET", body?: string): Promise<{ status: number; text: string }> {
    try {
      const res = await undiciRequest(url, {
        method,
        headers: { authorization: `Bearer ${this.accessToken}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body,
        // undici's own timers, not AbortSignal.timeout: a signal's timer outlives the call and builds a
        // DOMException when it fires (a quarter more CPU per request at a campaign's rate)
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      return { status: res.statusCode, text: await res.body.text() };
    } catch (err) {
      throw new GraphUnavailable(err instanceof Error ? err.message : String(err));
    }
  }

  /** Media (multipart upload, binary download) through fetch: rare, and FormData/Blob are fetch's. */
  private async fetchMedia(url: string, init: RequestInit = {}): Promise<Response> {
    try {
      return await fetch(url, {
        ...init,
        headers: { authorization: `Bearer ${this.accessToken}` },
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: "error",
      });
    } catch (err) {
      throw new GraphUnavailable(err instanceof Error ? err.message : String(err));
    }
  }

  private json<T>({ status, text }: { status: number; text: string }): T {
    const ok = status >= 200 && status < 300;
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : {};
    } catch (err) {
      // a body that is not JSON: a success cannot be used (thrown below), a failure keeps its HTTP status
      if (ok) throw new GraphError(status, null, `Graph answered with a body that is not JSON: ${(err as Error).message}`, text.slice(0, 200));
      data = {};
    }
    if (!ok) {
      throw GraphError.fromBody(status, (data as { error?: GraphErrorBody }).error);
    }
    return data as T;
  }

  private url(path: string, query: Record<string, string> = {}): string {
    const u = new URL(`${this.base}/${path.replace(/^\/+/, "")}`);
    for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
    return u.toString();
  }

  async get<T>(path: string, query: Record<string, string> = {}): Promise<T> {
    return this.json<T>(await this.call(this.url(path, query)));
  }

  async post<T>(path: string, body: unknown): Promise<T> {
    return this.json<T>(await this.call(this.url(path), "POST", JSON.stringify(body)));
  }

  /** Every item of a paged edge, following `paging.next` on the same host only (the token goes with it). */
  async all<T>(path: string, query: Record<string, string>): Promise<T[]> {
    const out: T[] = [];
    let next: string | undefined = this.url(path, { limit: "100", ...query });
    for (let page = 0; next && page < MAX_PAGES; page++) {
      const data: { data?: T[]; paging?: { next?: string } } = this.json(await this.call(next));
      out.push(...(data.data ?? []));
      next = data.paging?.next && new URL(data.paging.next).origin === this.origin ? data.paging.next : undefined;
    }
    return out;
  }

  phoneNumbers(wabaId: string): Promise<GraphPhoneNumber[]> {
    return this.all<GraphPhoneNumber>(`${wabaId}/phone_numbers`, { fields: PHONE_FIELDS });
  }

  phoneNumber(phoneNumberId: string): Promise<GraphPhoneNumber> {
    return this.get<GraphPhoneNumber>(phoneNumberId, { fields: PHONE_FIELDS });
  }

  templates(wabaId: string): Promise<GraphTemplate[]> {
    return this.all<GraphTemplate>(`${wabaId}/message_templates`, { fields: "id,name,language,category,status,parameter_format,components,rejected_reason" });
  }

  account(wabaId: string): Promise<{ id: string; name?: string; account_review_status?: string }> {
    return this.get(wabaId, { fields: "id,name,account_review_status" });
  }

  /** Subscribes the app to the WABA, so Meta sends its webhooks (messages, templates, account) to the app's callback URL. */
  subscribeApp(wabaId: string): Promise<{ success?: boolean }> {
    return this.post(`${wabaId}/subscribed_apps`, {});
  }

  /**
   * POST /{phone-number-id}/messages; returns the new message's id (wamid) and the recipient's WhatsApp
   * id as Meta answers it (`contacts[0].wa_id`: for an older Brazilian mobile, the 8-digit form).
   */
  async sendMessage(phoneNumberId: string, payload: Record<string, unknown>): Promise<{ id: string; waId?: string }> {
    const data = await this.post<{ messages?: { id: string }[]; contacts?: { input?: string; wa_id?: string }[] }>(`${phoneNumberId}/messages`, {
      messaging_product: "whatsapp",
      ...payload,
    });
    const id = data.messages?.[0]?.id;
    if (!id) throw new GraphError(502, null, "Graph answered without a message id");
    const waId = data.contacts?.[0]?.wa_id?.replace(/\D/g, "");
    return waId ? { id, waId } : { id };
  }

  markRead(phoneNumberId: string, messageId: string): Promise<unknown> {
    return this.post(`${phoneNumberId}/messages`, { messaging_product: "whatsapp", status: "read", message_id: messageId });
  }

  /** POST /{phone-number-id}/media (multipart); returns the media id. */
  async uploadMedia(phoneNumberId: string, file: { data: Buffer; fileName: string; mimetype: string }): Promise<string> {
    const form = new FormData();
    form.set("messaging_product", "whatsapp");
    form.set("type", file.mimetype);
    form.set("file", new Blob([new Uint8Array(file.data)], { type: file.mimetype }), file.fileName);
    const res = await this.fetchMedia(this.url(`${phoneNumberId}/media`), { method: "POST", body: form });
    const data = this.json<{ id?: string }>({ status: res.status, text: await res.text() });
    if (!data.id) throw new GraphError(502, null, "Graph answered without a media id");
    return data.id;
  }

  /**
   * Downloads received media: GET /{media-id} gives a short-lived URL, fetched with the same token.
   * The token is sent only to the Graph host itself or Meta's media hosts.
   */
  async downloadMedia(mediaId: string): Promise<{ data: Buffer; mimetype: string }> {
    const info = await this.get<{ url?: string; mime_type?: string; sha256?: string; file_size?: number }>(mediaId);
    if (!info.url) throw new GraphError(502, null, "media without url");
    const target = new URL(info.url);
    const trusted =
      target.origin === this.origin || (target.protocol === "https:" && /(^|\.)(fbsbx\.com|facebook\.com|whatsapp\.net|fbcdn\.net)$/.test(target.hostname));
    if (!trusted) throw new GraphError(502, null, `untrusted media host ${target.hostname}`);
    if (info.file_size && info.file_size > MAX_MEDIA_BYTES) throw new GraphError(413, null, "media too large");
    const res = await this.fetchMedia(target.toString());
    if (!res.ok) throw new GraphError(res.status, null, `media download HTTP ${res.status}`);
    const data = Buffer.from(await res.arrayBuffer());
    if (data.length > MAX_MEDIA_BYTES) throw new GraphError(413, null, "media too large");
    if (info.sha256 && createHash("sha256").update(data).digest("hex") !== info.sha256.toLowerCase()) {
      throw new GraphError(502, null, "media checksum mismatch");
    }
    return { data, mimetype: info.mime_type ?? res.headers.get("content-type") ?? "application/octet-stream" };
  }
}
