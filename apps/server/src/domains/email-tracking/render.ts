import { decodeAttribute, type ContentUrls } from "../campaign-links/content-urls.js";
import { signTrackingToken } from "./tokens.js";

/** HTML-escapes a value placed in the template's HTML. */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_À-ÿ-]+)\s*\}\}/g;

/** The {{name}} placeholders a template uses (lower case, in order of first use). */
export function templatePlaceholders(...texts: string[]): string[] {
  const names = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(PLACEHOLDER)) names.add(m[1]!.toLowerCase());
  return [...names];
}

/** Fills {{name}} from the row's columns; `escape` for HTML. A name the row lacks stays as written. */
export function fillPlaceholders(text: string, values: Map<string, string>, escape: boolean): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const v = values.get(name.toLowerCase());
    if (v === undefined) return whole;
    return escape ? escapeHtml(v) : v;
  });
}

export interface TrackedLinks {
  publicUrl: string;
  appSecret: string;
  companyId: number;
  rowId: string;
}

export const unsubscribeUrl = (t: TrackedLinks) => `${t.publicUrl}/t/u/${signTrackingToken(t.appSecret, "u", [t.companyId, t.rowId])}`;

/**
 * The recipient's HTML: every http(s) link of an <a> that is one of the campaign's own URLs
 * (`content`, from the HTML as its author wrote it) goes through the click route (its original URL
 * inside the signed token), an open pixel and a visible unsubscribe footer are added before </body>.
 * Other links (mailto:, tel:, anchors, a URL made only of recipient data) are left alone: the click
 * route would refuse them.
 */
export function trackHtml(html: string, t: TrackedLinks, content: ContentUrls): string {
  const rewritten = html.replace(/(<a\b[^>]*?\bhref\s*=\s*)("([^"]*)"|'([^']*)')/gi, (whole, prefix: string, _q, dq?: string, sq?: string) => {
    const url = decodeAttribute((dq ?? sq ?? "").trim());
    if (!/^https?:\/\//i.test(url) || !content.allows(url)) return whole;
    const token = signTrackingToken(t.appSecret, "c", [t.companyId, t.rowId, url]);
    return `${prefix}"${t.publicUrl}/t/c/${token}"`;
  });
  const pixel = `<img src="${t.publicUrl}/t/o/${signTrackingToken(t.appSecret, "o", [t.companyId, t.rowId])}.gif" width="1" height="1" alt="" style="border:0">`;
  const footer =
    `<p style="font-size:12px;color:#666666;margin-top:24px">Não quer mais receber estes e-mails? ` +
    `<a href="${unsubscribeUrl(t)}">Descadastrar</a></p>`;
  const tail = `${footer}${pixel}`;
  return /<\/body>/i.test(rewritten) ? rewritten.replace(/<\/body>/i, `${tail}</body>`) : `${rewritten}${tail}`;
}

/** A plain-text alternative: the HTML's text (tags removed, entities decoded) and the unsubscribe link. */
export function textAlternative(html: string, unsubscribe: string): string {
  const text = decodeAttribute(
    html
      .replace(/<(script|style)[\s\S]*?<\/\1>/gi, "")
      .replace(/<br\s*\/?>|<\/(p|div|h[1-6]|li|tr)>/gi, "\n")
      .replace(/<[^>]+>/g, "")
      .replace(/&nbsp;/gi, " "),
  )
    .replace(/[ \t]+/g, " ")
    .replace(/\n\s*\n\s*/g, "\n\n")
    .trim();
  return `${text}\n\nPara não receber mais estes e-mails: ${unsubscribe}\n`;
}
