/**
 * The URLs of a campaign's own content: the links its author wrote in the e-mail's HTML or the SMS
 * template, as they were stored with the campaign. A click or short link redirects only to one of
 * them (docs/architecture.md "Campaign links"), so no recipient data (a CSV cell filling a
 * placeholder) and no forged or altered link can make the platform's domain redirect elsewhere.
 *
 * A written URL with {{placeholders}} matches any filling of them, but only after its origin: the
 * scheme, host and port must be written out (`https://loja.com.br/p?c={{codigo}}` is content;
 * `https://{{site}}/` and `{{link}}` are not, so such links are neither tracked nor shortened).
 */

/** A placeholder, as the e-mail ({{name}}) and SMS ({{ any name }}) templates write them. */
const PLACEHOLDER = /\{\{[^{}]*\}\}/g;
/** What stands for a placeholder while the URLs are found: a private-use character, not in any URL. */
const HOLE = "\uE000";
/** http(s) URLs in a text (up to a space, quote or angle bracket; a trailing sentence mark stays out): as the SMS short links find them. */
export const TEXT_URL = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)]/gi;
/** The href of each <a> of an HTML document (double or single quoted). */
const HREF = /<a\b[^>]*?\bhref\s*=\s*("([^"]*)"|'([^']*)')/gi;

/** An href's text as the browser reads it (the entities the HTML may use in a URL). */
export function decodeAttribute(value: string): string {
  return value
    .replace(/&amp;/gi, "&")
    .replace(/&quot;/gi, '"')
    .replace(/&#39;|&apos;/gi, "'")
    .replace(/&lt;/gi, "<")
    .replace(/&gt;/gi, ">");
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** One written URL: its exact text, or a pattern of its literal parts around the placeholders, and its origin. */
interface WrittenUrl {
  exact?: string;
  pattern?: RegExp;
  origin: string;
}

function written(url: string): WrittenUrl | null {
  if (!/^https?:\/\//i.test(url)) return null;
  const afterScheme = url.indexOf("://") + 3;
  const authorityEnd = url.slice(afterScheme).search(/[/?#]/);
  const authority = authorityEnd < 0 ? url.slice(afterScheme) : url.slice(afterScheme, afterScheme + authorityEnd);
  if (authority.includes(HOLE) || !authority) return null;
  let origin: string;
  try {
    origin = new URL(url.slice(0, afterScheme + authority.length)).origin;
    // eslint-disable-next-line no-restricted-syntax -- a written link that is no URL is simply not one of the campaign's URLs
  } catch {
    return null;
  }
  if (!url.includes(HOLE)) return { exact: url, origin };
  const source = url.split(HOLE).map(escapeRegExp).join("[^\\s<>\"']*");
  return { pattern: new RegExp(`^${source}$`), origin };
}

export class ContentUrls {
  private constructor(private readonly urls: WrittenUrl[]) {}

  /** The URLs written in an e-mail's HTML (the href of each link, entities decoded). */
  static ofHtml(html: string): ContentUrls {
    const texts: string[] = [];
    for (const m of html.replace(PLACEHOLDER, HOLE).matchAll(HREF)) texts.push(decodeAttribute((m[2] ?? m[3] ?? "").trim()));
    return new ContentUrls(texts.map(written).filter((u): u is WrittenUrl => u !== null));
  }

  /** The URLs written in an SMS template's text. */
  static ofText(text: string): ContentUrls {
    const texts = [...text.replace(PLACEHOLDER, HOLE).matchAll(TEXT_URL)].map((m) => m[0]);
    return new ContentUrls(texts.map(written).filter((u): u is WrittenUrl => u !== null));
  }

  /** Whether `target` (a link of a recipient's filled message) is one of these URLs. */
  allows(target: string): boolean {
    if (target.includes(HOLE)) return false;
    let origin: string;
    try {
      origin = new URL(target).origin;
      // eslint-disable-next-line no-restricted-syntax -- a target that is no URL is refused (the caller answers 404)
    } catch {
      return false;
    }
    return this.urls.some((u) => u.origin === origin && (u.exact !== undefined ? u.exact === target : u.pattern!.test(target)));
  }
}
