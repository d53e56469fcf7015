import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../core/context.js";
import type { Sql } from "../../db/sql.js";
import { smsNotifier } from "./events.js";
import { recountSmsClicks } from "./repository.js";

/** http(s) URLs in a text (up to a space, quote or angle bracket; a trailing sentence mark stays out). */
const URL_RE = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)]/gi;

export interface ShortLink {
  code: string;
  companyId: number;
  campaignId: number;
  recipientId: string;
  url: string;
}

/** 8 characters of base64url: 48 random bits, so codes cannot be guessed or walked. */
const newCode = () => randomBytes(6).toString("base64url");

/** The text with each URL replaced by `{PUBLIC_URL}/s/<code>`, a code per recipient and URL; the links to store. */
export function shortenText(text: string, publicUrl: string, owner: Omit<ShortLink, "code" | "url">): { text: string; links: ShortLink[] } {
  const links: ShortLink[] = [];
  const base = publicUrl.replace(/\/+$/, "");
  const out = text.replace(URL_RE, (url) => {
    const code = newCode();
    links.push({ ...owner, code, url });
    return `${base}/s/${code}`;
  });
  return { text: out, links };
}

export async function storeShortLinks(sql: Sql, links: ShortLink[]): Promise<void> {
  if (!links.length) return;
  await sql.exec(
    `INSERT INTO sms_short_links (code, company_id, campaign_id, recipient_id, url)
     SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::bigint[], $5::text[])`,
    [links.map((l) => l.code), links.map((l) => l.companyId), links.map((l) => l.campaignId), links.map((l) => l.recipientId), links.map((l) => l.url)],
  );
}

/**
 * GET /s/:code (public, outside /api): redirects to the stored URL and records the first click of
 * that recipient's link (later clicks redirect without counting again). Unknown code: 404.
 */
export function registerShortLinkRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { code: string } }>("/s/:code", { config: { public: true } }, async (request, reply) => {
    const code = request.params.code;
    if (!/^[A-Za-z0-9_-]{6,16}$/.test(code)) return reply.code(404).type("text/plain").send("Link não encontrado");
    const row = await ctx.sql.maybe<{ url: string; campaign_id: number; first: boolean }>(
      `WITH before AS (SELECT clicked_at FROM sms_short_links WHERE code = $1 FOR UPDATE)
       UPDATE sms_short_links l SET clicked_at = COALESCE(l.clicked_at, now()) FROM before
        WHERE l.code = $1 RETURNING l.url, l.campaign_id, before.clicked_at IS NULL AS first`,
      [code],
    );
    if (!row) return reply.code(404).type("text/plain").send("Link não encontrado");
    if (row.first) {
      await recountSmsClicks(ctx.sql, row.campaign_id);
      smsNotifier(ctx).changed([row.campaign_id]);
    }
    return reply.redirect(row.url, 302);
  });
}
