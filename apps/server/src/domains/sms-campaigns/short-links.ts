import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../core/context.js";
import { sendClick } from "../campaign-links/click-page.js";
import { companyLinks } from "../campaign-links/company-links.js";
import { ContentUrls, TEXT_URL } from "../campaign-links/content-urls.js";
import type { Sql } from "../../db/sql.js";
import { smsNotifier } from "./events.js";
import { recountSmsClicks } from "./repository.js";


export interface ShortLink {
  code: string;
  companyId: number;
  campaignId: number;
  recipientId: string;
  url: string;
}

/** 8 characters of base64url: 48 random bits, so codes cannot be guessed or walked. */
const newCode = () => randomBytes(6).toString("base64url");

/**
 * The text with each URL that is one of the campaign's own (`content`, from its template as written)
 * replaced by `{base}/s/<code>`, a code per recipient and URL; the links to store. `base` is the
 * company's link host or PUBLIC_URL. A URL made of recipient data stays as it is: `/s/` would refuse it.
 */
export function shortenText(text: string, base: string, content: ContentUrls, owner: Omit<ShortLink, "code" | "url">): { text: string; links: ShortLink[] } {
  const links: ShortLink[] = [];
  const out = text.replace(TEXT_URL, (url) => {
    if (!content.allows(url)) return url;
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
 * GET /s/:code (public, outside /api): sends the click on to the stored URL (straight to the company's
 * own domains, through the click page elsewhere: campaign-links/click-page.ts) and records the first
 * click of that recipient's link (later clicks do not count again). Unknown code, or a stored URL that
 * is not one of its campaign's template's URLs: 404.
 */
export function registerShortLinkRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { code: string } }>("/s/:code", { config: { public: true } }, async (request, reply) => {
    const code = request.params.code;
    if (!/^[A-Za-z0-9_-]{6,16}$/.test(code)) return reply.code(404).type("text/plain").send("Link não encontrado");
    const link = await ctx.sql.maybe<{ url: string; company_id: number; template_content: string }>(
      `SELECT l.url, l.company_id, c.template_content FROM sms_short_links l
         JOIN sms_campaigns c ON c.company_id = l.company_id AND c.id = l.campaign_id
        WHERE l.code = $1`,
      [code],
    );
    if (!link) return reply.code(404).type("text/plain").send("Link não encontrado");
    if (!ContentUrls.ofText(link.template_content).allows(link.url)) {
      request.log.warn({ companyId: link.company_id, code, url: link.url }, "short link refused: not one of its campaign's URLs");
      return reply.code(404).type("text/plain").send("Link não encontrado");
    }
    const row = await ctx.sql.maybe<{ campaign_id: number; first: boolean }>(
      `WITH before AS (SELECT clicked_at FROM sms_short_links WHERE company_id = $2 AND code = $1 FOR UPDATE)
       UPDATE sms_short_links l SET clicked_at = COALESCE(l.clicked_at, now()) FROM before
        WHERE l.company_id = $2 AND l.code = $1 RETURNING l.campaign_id, before.clicked_at IS NULL AS first`,
      [code, link.company_id],
    );
    if (row?.first) {
      await recountSmsClicks(ctx.sql, row.campaign_id);
      smsNotifier(ctx).changed([row.campaign_id]);
    }
    return sendClick(request, reply, link.url, await companyLinks(ctx.sql, link.company_id, ctx.config.publicUrl));
  });
}
