import { readFileSync } from "node:fs";
import https from "node:https";
import { buildBrCode } from "./brcode.js";
import type { PixConfig } from "./config.js";
import { PixUnavailable, type PixChargeCreated, type PixChargeState, type PixDriver, type PixReceived } from "./driver.js";

const TIMEOUT_MS = 15_000;
const MAX_ANSWER_BYTES = 1_000_000;

/** The PSP's JSON answer; a body that is not JSON is kept (cut) so the error message shows it. */
function parseAnswer(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    return { raw: text.slice(0, 500), error: err instanceof Error ? err.message : String(err) };
  }
}

interface Answer {
  status: number;
  json: unknown;
}

/**
 * A PSP speaking the Banco Central's standard Pix API (bacen.github.io/pix-api): OAuth2 client
 * credentials on the token endpoint and every call over mutual TLS with the PSP's client certificate;
 * `PUT /v2/cob/{txid}` creates an immediate charge, `GET /v2/cob/{txid}` reads it with its payments,
 * `PUT /v2/webhook/{chave}` registers where the PSP posts payments.
 */
export class BcbApiPixDriver implements PixDriver {
  readonly name = "bcb";
  private readonly agent: https.Agent;
  private token: { value: string; until: number } | null = null;

  constructor(private readonly config: PixConfig) {
    this.agent = new https.Agent({
      cert: readFileSync(config.certFile),
      key: readFileSync(config.keyFile),
      ...(config.caFile ? { ca: readFileSync(config.caFile) } : {}),
      keepAlive: true,
    });
  }

  private request(method: string, url: string, headers: Record<string, string>, body?: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = https.request(url, { method, agent: this.agent, headers: { accept: "application/json", ...headers }, timeout: TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new PixUnavailable("PSP answer too large"));
          else chunks.push(c);
        });
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, json: parseAnswer(text) });
        });
        res.on("error", reject);
      });
      req.on("timeout", () => req.destroy(new PixUnavailable(`PSP timeout after ${TIMEOUT_MS} ms`)));
      req.on("error", (err) => reject(err instanceof PixUnavailable ? err : new PixUnavailable(`PSP unreachable: ${err.message}`)));
      if (body) req.write(body);
      req.end();
    });
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.until > Date.now()) return this.token.value;
    const basic = Buffer.from(`${this.config.clientId}:${this.config.clientSecret}`).toString("base64");
    const res = await this.request("POST", this.config.tokenUrl, { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" }, "grant_type=client_credentials");
    const answer = res.json as { access_token?: string; expires_in?: number } | null;
    if (res.status !== 200 || !answer?.access_token) throw new PixUnavailable(`PSP token refused (HTTP ${res.status})`);
    // renew a minute early so a token never expires in flight
    this.token = { value: answer.access_token, until: Date.now() + Math.max(0, (answer.expires_in ?? 300) - 60) * 1000 };
    return this.token.value;
  }

  private async api(method: string, path: string, body?: unknown): Promise<Answer> {
    const call = async () =>
      this.request(method, `${this.config.baseUrl}${path}`, { authorization: `Bearer ${await this.accessToken()}`, ...(body ? { "content-type": "application/json" } : {}) }, body ? JSON.stringify(body) : undefined);
    let res = await call();
    if (res.status === 401) {
      this.token = null;
      res = await call();
    }
    return res;
  }

  async createCharge(input: { txid: string; amount: number; expiresInSeconds: number; description: string }): Promise<PixChargeCreated> {
    const res = await this.api("PUT", `/v2/cob/${encodeURIComponent(input.txid)}`, {
      calendario: { expiracao: input.expiresInSeconds },
      valor: { original: input.amount.toFixed(2) },
      chave: this.config.chave,
      solicitacaoPagador: input.description.slice(0, 140),
    });
    const cob = res.json as { txid?: string; status?: string; location?: string; pixCopiaECola?: string; calendario?: { criacao?: string; expiracao?: number } } | null;
    if ((res.status !== 201 && res.status !== 200) || !cob?.txid) throw new PixUnavailable(`PSP refused the charge (HTTP ${res.status}): ${JSON.stringify(res.json).slice(0, 300)}`);
    const brcode =
      cob.pixCopiaECola ||
      (cob.location ? buildBrCode({ location: cob.location.replace(/^https:\/\//, ""), merchantName: this.config.merchantName, merchantCity: this.config.merchantCity }) : "");
    if (!brcode) throw new PixUnavailable("PSP answered a charge without pixCopiaECola or location");
    const created = cob.calendario?.criacao ? Date.parse(cob.calendario.criacao) : Date.now();
    return { txid: cob.txid, status: cob.status ?? "ATIVA", brcode, expiresAt: new Date((Number.isNaN(created) ? Date.now() : created) + (cob.calendario?.expiracao ?? input.expiresInSeconds) * 1000) };
  }

  async getCharge(txid: string): Promise<PixChargeState | null> {
    const res = await this.api("GET", `/v2/cob/${encodeURIComponent(txid)}`);
    if (res.status === 404) return null;
    const cob = res.json as { txid?: string; status?: string; pix?: PixReceived[] } | null;
    if (res.status !== 200 || !cob?.status) throw new PixUnavailable(`PSP could not read charge ${txid} (HTTP ${res.status})`);
    return { txid: cob.txid ?? txid, status: cob.status, pix: Array.isArray(cob.pix) ? cob.pix : [] };
  }

  async registerWebhook(url: string): Promise<void> {
    const res = await this.api("PUT", `/v2/webhook/${encodeURIComponent(this.config.chave)}`, { webhookUrl: url });
    if (res.status < 200 || res.status > 299) throw new PixUnavailable(`PSP refused the webhook (HTTP ${res.status})`);
  }
}
