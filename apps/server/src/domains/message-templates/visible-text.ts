const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
/** Accented letters' entities (&ccedil;, &Atilde;, &eacute; ...): the letter plus its combining mark. */
const MARKS: Record<string, string> = { acute: "\u0301", grave: "\u0300", circ: "\u0302", tilde: "\u0303", uml: "\u0308", cedil: "\u0327" };

function accented(body: string): string | undefined {
  const m = /^([a-zA-Z])(acute|grave|circ|tilde|uml|cedil)$/.exec(body);
  return m ? (m[1]! + MARKS[m[2]!]!).normalize("NFC") : undefined;
}

function decodeEntity(entity: string, body: string): string {
  if (body[0] === "#") {
    const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  }
  return NAMED[body] ?? accented(body) ?? entity;
}

/**
 * The text of an e-mail's HTML as a reader sees it, for the block list: comments, scripts and styles
 * dropped; inline tags (b, span, a...) removed so `Pro<b>mo</b>` reads 'Promo'; other tags separate
 * words; entities decoded. Not a sanitiser: the HTML itself is never rendered outside a sandboxed iframe.
 */
export function visibleText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<(script|style|head|title)\b[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<\/?(?:b|i|u|em|strong|span|a|font|small|big|sub|sup|mark|s|strike|code)\b[^>]*>/gi, "")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/g, (entity, body: string) => decodeEntity(entity, body))
    .replace(/\s+/g, " ")
    .trim();
}
