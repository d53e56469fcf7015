import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../core/context.js";
import { companyLinks } from "../campaign-links/company-links.js";
import { sendClick } from "../campaign-links/click-page.js";
import { ContentUrls } from "../campaign-links/content-urls.js";
import { confirmVerification, readVerification } from "../email-senders/service.js";
import { escapeHtml } from "./render.js";
import { readTrackingToken } from "./tokens.js";
import { recordOpen, unsubscribe } from "./tracking.js";

/** A transparent 1×1 GIF. */
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

function page(title: string, body: string): string {
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" type="image/svg+xml" href="/favicon.svg"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:480px;margin:48px auto;padding:0 16px;color:#222}button{font-size:16px;padding:10px 20px;cursor:pointer}
@media (prefers-color-scheme: dark){body{background:#121212;color:#eee}}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

const rowOf = (parts: (string | number)[] | null) => {
  if (!parts) return null;
  const companyId = Number(parts[0]);
  const rowId = String(parts[1] ?? "");
  return Number.isInteger(companyId) && companyId > 0 && /^\d{1,18}$/.test(rowId) ? { companyId, rowId } : null;
};

/**
 * The public e-mail routes, outside /api and without a session (docs/architecture.md "E-mail
 * campaigns"): the open pixel, the click redirect, the one-click unsubscribe (RFC 8058: POST
 * unsubscribes; GET only shows a button, as link scanners follow GETs) and the sender verification
 * (the same: GET shows, POST confirms). Every token is HMAC-signed; a forged one answers 404.
 */
export async function emailPublicRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // RFC 8058's POST body is `List-Unsubscribe=One-Click` as application/x-www-form-urlencoded
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 4096 }, (_request, body, done) => done(null, body));
  const secret = ctx.config.jwtSecret;
  const notFound = (reply: import("fastify").FastifyReply) => reply.status(404).type("text/html; charset=utf-8").send(page("Link inválido", "<p>Este link não é válido.</p>"));

  app.get<{ Params: { file: string } }>("/t/o/:file", async (request, reply) => {
    const row = rowOf(readTrackingToken(secret, "o", request.params.file.replace(/\.gif$/, "")));
    if (row) await recordOpen(ctx, row.companyId, row.rowId, false);
    // the pixel answers either way (a mail client shows no broken image), never cached so each open asks;
    // any page may embed it (webmail, the sandbox mailbox's opaque-origin iframe), unlike the app's resources
    return reply.header("cache-control", "no-store").header("cross-origin-resource-policy", "cross-origin").type("image/gif").send(PIXEL);
  });

  app.get<{ Params: { token: string } }>("/t/c/:token", async (request, reply) => {
    const parts = readTrackingToken(secret, "c", request.params.token);
    const row = rowOf(parts);
    const url = typeof parts?.[2] === "string" ? parts[2] : "";
    if (!row || !/^https?:\/\//i.test(url)) return notFound(reply);
    // signed, and also one of the URLs its campaign's author wrote: nothing else is redirected to
    const campaign = await ctx.sql.maybe<{ html: string }>(
      `SELECT c.html FROM email_campaign_recipients r JOIN email_campaigns c ON c.company_id = r.company_id AND c.id = r.campaign_id
        WHERE r.company_id = $1 AND r.id = $2`,
      [row.companyId, row.rowId],
    );
    if (!campaign || !ContentUrls.ofHtml(campaign.html).allows(url)) {
      request.log.warn({ companyId: row.companyId, rowId: row.rowId, url }, "click refused: not one of its campaign's URLs");
      return notFound(reply);
    }
    await recordOpen(ctx, row.companyId, row.rowId, true);
    return sendClick(request, reply, url, await companyLinks(ctx.sql, row.companyId, ctx.config.publicUrl));
  });

  app.get<{ Params: { token: string } }>("/t/u/:token", async (request, reply) => {
    if (!rowOf(readTrackingToken(secret, "u", request.params.token))) return notFound(reply);
    return reply
      .type("text/html; charset=utf-8")
      .send(page("Descadastrar", `<p>Deseja parar de receber estes e-mails?</p><form method="post"><button type="submit">Descadastrar</button></form>`));
  });

  app.post<{ Params: { token: string } }>("/t/u/:token", async (request, reply) => {
    const row = rowOf(readTrackingToken(secret, "u", request.params.token));
    if (!row) return notFound(reply);
    const email = await unsubscribe(ctx, row.companyId, row.rowId);
    if (!email) return notFound(reply);
    return reply.type("text/html; charset=utf-8").send(page("Descadastrado", `<p>${escapeHtml(email)} não receberá mais estes e-mails.</p>`));
  });

  app.get<{ Params: { token: string } }>("/t/v/:token", async (request, reply) => {
    if (!readVerification(ctx, request.params.token)) return notFound(reply);
    return reply
      .type("text/html; charset=utf-8")
      .send(page("Confirmar remetente", `<p>Confirme que este endereço pode enviar campanhas de e-mail.</p><form method="post"><button type="submit">Confirmar remetente</button></form>`));
  });

  app.post<{ Params: { token: string } }>("/t/v/:token", async (request, reply) => {
    const email = await confirmVerification(ctx, request.params.token);
    if (!email) return notFound(reply);
    return reply.type("text/html; charset=utf-8").send(page("Remetente confirmado", `<p>${escapeHtml(email)} já pode ser usado nas campanhas de e-mail.</p>`));
  });
}
