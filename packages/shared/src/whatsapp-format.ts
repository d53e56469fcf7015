/**
 * WhatsApp's text formatting, parsed into a tree (never into HTML), and stripped for one-line previews.
 *
 * Rules, as WhatsApp applies them:
 * - `*bold*`, `_italic_`, `~strike~` and inline `` `code` `` stay on one line;
 *   ```` ```monospace``` ```` may span lines; monospace and code show their content as written;
 * - markers hug the text: the opening one is followed, the closing one preceded, by a non-space
 *   (`* not bold *` stays as typed);
 * - markers sit outside words: no letter or digit right before the opening one or right after the
 *   closing one (`2*3*4`, `snake_case_name` stay as typed);
 * - styles nest (`*_x_*` is bold and italic);
 * - http(s) addresses become links; a link's text is never formatted.
 */
export type WaStyle = "bold" | "italic" | "strike";

export type WaNode =
  | { type: "text"; text: string }
  | { type: WaStyle; children: WaNode[] }
  | { type: "mono" | "code"; text: string }
  | { type: "link"; href: string; text: string };

const STYLE_OF: Record<string, WaStyle> = { "*": "bold", _: "italic", "~": "strike" };
const WORD = /[\p{L}\p{N}]/u;
const SPACE = /\s/;
const URL = /^https?:\/\/[^\s<>"]+/i;
/** Trailing characters that end a sentence rather than an address. */
const URL_TAIL = /[.,;:!?)\]'*_~]+$/;

const isWord = (ch: string | undefined) => ch !== undefined && WORD.test(ch);
const isSpace = (ch: string | undefined) => ch === undefined || SPACE.test(ch);

/** Where the span opened at `start` by `marker` closes (index of the closing marker), or -1. */
function closing(text: string, start: number, marker: string, multiline: boolean): number {
  const from = start + marker.length;
  if (isSpace(text[from]) || text.startsWith(marker, from)) return -1;
  for (let j = text.indexOf(marker, from + 1); j !== -1; j = text.indexOf(marker, j + 1)) {
    if (!multiline && text.slice(from, j).includes("\n")) return -1;
    if (!isSpace(text[j - 1]) && !isWord(text[j + marker.length])) return j;
  }
  return -1;
}

function link(text: string, i: number): string | null {
  const m = URL.exec(text.slice(i));
  if (!m) return null;
  const href = m[0].replace(URL_TAIL, "");
  return /^https?:\/\/./i.test(href) ? href : null;
}

/** The formatting tree of a message text. */
export function parseWhatsApp(text: string): WaNode[] {
  const out: WaNode[] = [];
  let plain = "";
  const flush = () => {
    if (plain) out.push({ type: "text", text: plain });
    plain = "";
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const outside = !isWord(text[i - 1]);
    if (outside && (ch === "h" || ch === "H")) {
      const href = link(text, i);
      if (href) {
        flush();
        out.push({ type: "link", href, text: href });
        i += href.length;
        continue;
      }
    }
    if (outside && text.startsWith("```", i)) {
      const end = closing(text, i, "```", true);
      if (end !== -1) {
        flush();
        out.push({ type: "mono", text: text.slice(i + 3, end) });
        i = end + 3;
        continue;
      }
    }
    if (outside && ch === "`" && !text.startsWith("```", i)) {
      const end = closing(text, i, "`", false);
      if (end !== -1) {
        flush();
        out.push({ type: "code", text: text.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    const style = STYLE_OF[ch];
    if (outside && style) {
      const end = closing(text, i, ch, false);
      if (end !== -1) {
        flush();
        out.push({ type: style, children: parseWhatsApp(text.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    plain += ch;
    i += 1;
  }
  flush();
  return out;
}

function plainOf(nodes: WaNode[]): string {
  return nodes.map((n) => ("children" in n ? plainOf(n.children) : n.text)).join("");
}

/** The text without its formatting marks (what the reader sees, unstyled). */
export function stripWhatsApp(text: string): string {
  return plainOf(parseWhatsApp(text));
}

/** A one-line preview (ticket list, kanban card, notification): marks stripped, line breaks and runs of spaces as one space. */
export function whatsAppPreview(text: string): string {
  return stripWhatsApp(text).replace(/\s+/g, " ").trim();
}

function cutNodes(nodes: WaNode[], budget: { left: number }): WaNode[] {
  const out: WaNode[] = [];
  for (const n of nodes) {
    if (budget.left <= 0) break;
    if ("children" in n) {
      out.push({ type: n.type, children: cutNodes(n.children, budget) });
    } else {
      const text = n.text.slice(0, budget.left);
      budget.left -= n.text.length;
      // a cut address is no longer the address: it stays as plain text
      out.push(n.type === "link" ? (text === n.text ? n : { type: "text", text }) : { ...n, text });
    }
  }
  return out;
}

/** The first `max` visible characters of a formatted text (marks do not count), with "..." when cut. */
export function truncateWhatsApp(text: string, max: number): WaNode[] {
  const nodes = parseWhatsApp(text);
  if (plainOf(nodes).length <= max) return nodes;
  return [...cutNodes(nodes, { left: max }), { type: "text", text: "..." }];
}
