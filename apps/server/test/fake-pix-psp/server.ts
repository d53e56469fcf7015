import { randomBytes } from "node:crypto";
import https from "node:https";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import type { TestPki } from "./certificates.js";

/**
 * A fake PSP speaking the Banco Central's standard Pix API (bacen.github.io/pix-api, "API Pix"
 * v2) over mutual TLS, written from the API's published definition: OAuth2 client credentials
 * (HTTP Basic, grant_type=client_credentials) at /oauth/token; `PUT /v2/cob/{txid}` (txid
 * [a-zA-Z0-9]{26,35}; body calendario.expiracao, valor.original "\d{1,10}\.\d{2}", chave) answering 201
 * with the CobGerada (txid, revisao, loc, location, status ATIVA, pixCopiaECola); `GET /v2/cob/{txid}`
 * with the payments (`pix`: endToEndId, txid, valor, horario); `PUT /v2/webhook/{chave}` with
 * webhookUrl. Errors are problem+json documents. The test "pays" a charge with pay().
 */

export interface FakeCob {
  txid: string;
  status: string;
  valor: { original: string };
  chave: string;
  calendario: { criacao: string; expiracao: number };
  location: string;
  pix: { endToEndId: string; txid: string; valor: string; horario: string }[];
}

export interface FakePsp {
  url: string;
  clientId: string;
  clientSecret: string;
  cobs: Map<string, FakeCob>;
  webhooks: Map<string, string>;
  tokensIssued: number;
  /** Requests seen, with the client certificate's subject CN. */
  requests: { method: string; path: string; clientCn: string }[];
  pay(txid: string, valor?: string): FakeCob["pix"][number];
  /** Makes every token issued so far invalid (the next call gets 401 and must fetch a new one). */
  revokeTokens(): void;
  close(): Promise<void>;
}

const TXID = /^[a-zA-Z0-9]{26,35}$/;
const MONEY = /^\d{1,10}\.\d{2}$/;

function problem(res: import("node:http").ServerResponse, status: number, title: string, detail: string): void {
  res.writeHead(status, { "content-type": "application/problem+json" });
  res.end(JSON.stringify({ type: `https://pix.bcb.gov.br/api/v2/error/${title.replace(/\s+/g, "")}`, title, status, detail }));
}

export async function startFakePsp(pki: TestPki): Promise<FakePsp> {
  const clientId = "client-" + randomBytes(4).toString("hex");
  const clientSecret = randomBytes(12).toString("hex");
  let tokens = new Set<string>();
  const psp: Omit<FakePsp, "url" | "close"> = {
    clientId,
    clientSecret,
    cobs: new Map(),
    webhooks: new Map(),
    tokensIssued: 0,
    requests: [],
    pay(txid, valor) {
      const cob = psp.cobs.get(txid);
      if (!cob) throw new Error(`no cob ${txid}`);
      const pix = { endToEndId: `E12345678${Date.now()}${randomBytes(4).toString("hex")}`.slice(0, 32), txid, valor: valor ?? cob.valor.original, horario: new Date().toISOString() };
      cob.pix.push(pix);
      cob.status = "CONCLUIDA";
      return pix;
    },
    revokeTokens() {
      tokens = new Set();
    },
  };
  const server = https.createServer({ key: pki.serverKey, cert: pki.serverCert, ca: pki.caCert, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const url = new URL(req.url ?? "/", "https://127.0.0.1");
      const cn = (req.socket as TLSSocket).getPeerCertificate()?.subject?.CN ?? "";
      psp.requests.push({ method: req.method ?? "", path: url.pathname, clientCn: String(cn) });
      if (req.method === "POST" && url.pathname === "/oauth/token") {
        const basic = Buffer.from(`${clientId}:${clientSecret}`).toString("base64");
        if (req.headers.authorization !== `Basic ${basic}` || new URLSearchParams(body).get("grant_type") !== "client_credentials") {
          res.writeHead(401, { "content-type": "application/json" });
          return res.end(JSON.stringify({ error: "invalid_client" }));
        }
        const token = randomBytes(16).toString("hex");
        tokens.add(token);
        psp.tokensIssued++;
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ access_token: token, token_type: "Bearer", expires_in: 3600, scope: "cob.write cob.read webhook.write" }));
      }
      const bearer = (req.headers.authorization ?? "").replace(/^Bearer /, "");
      if (!tokens.has(bearer)) return problem(res, 401, "Nao Autorizado", "token inválido ou expirado");
      const cobMatch = /^\/v2\/cob\/([^/]+)$/.exec(url.pathname);
      if (cobMatch) {
        const txid = decodeURIComponent(cobMatch[1]!);
        if (!TXID.test(txid)) return problem(res, 400, "Cobranca Invalida", "txid inválido");
        if (req.method === "PUT") {
          let input: { calendario?: { expiracao?: unknown }; valor?: { original?: unknown }; chave?: unknown };
          try {
            input = JSON.parse(body) as typeof input;
          } catch (err) {
            return problem(res, 400, "Requisicao Invalida", `JSON inválido: ${String(err)}`);
          }
          if (typeof input.valor?.original !== "string" || !MONEY.test(input.valor.original)) return problem(res, 400, "Cobranca Invalida", "valor.original inválido");
          if (typeof input.chave !== "string" || !input.chave) return problem(res, 400, "Cobranca Invalida", "chave ausente");
          const expiracao = input.calendario?.expiracao ?? 86400;
          if (!Number.isInteger(expiracao) || (expiracao as number) <= 0) return problem(res, 400, "Cobranca Invalida", "calendario.expiracao inválido");
          if (psp.cobs.has(txid)) return problem(res, 409, "Cobranca Ja Existe", "txid já utilizado");
          const loc = `pix.psp.test/qr/v2/${randomBytes(16).toString("hex")}`;
          const cob: FakeCob = { txid, status: "ATIVA", valor: { original: input.valor.original }, chave: input.chave, calendario: { criacao: new Date().toISOString(), expiracao: expiracao as number }, location: loc, pix: [] };
          psp.cobs.set(txid, cob);
          res.writeHead(201, { "content-type": "application/json" });
          return res.end(JSON.stringify({ calendario: cob.calendario, txid, revisao: 0, loc: { id: 1, location: loc, tipoCob: "cob" }, location: loc, status: "ATIVA", valor: cob.valor, chave: cob.chave }));
        }
        if (req.method === "GET") {
          const cob = psp.cobs.get(txid);
          if (!cob) return problem(res, 404, "Cobranca Nao Encontrada", "cobrança não encontrada");
          res.writeHead(200, { "content-type": "application/json" });
          return res.end(JSON.stringify({ ...cob, revisao: 0, ...(cob.pix.length ? {} : { pix: undefined }) }));
        }
      }
      const hookMatch = /^\/v2\/webhook\/([^/]+)$/.exec(url.pathname);
      if (hookMatch && req.method === "PUT") {
        const { webhookUrl } = JSON.parse(body || "{}") as { webhookUrl?: string };
        if (!webhookUrl?.startsWith("http")) return problem(res, 400, "Webhook Invalido", "webhookUrl inválida");
        psp.webhooks.set(decodeURIComponent(hookMatch[1]!), webhookUrl);
        res.writeHead(204);
        return res.end();
      }
      problem(res, 404, "Nao Encontrado", "rota desconhecida");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    ...psp,
    get tokensIssued() {
      return psp.tokensIssued;
    },
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
