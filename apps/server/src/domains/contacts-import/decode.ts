/**
 * The import file's text. UTF-8 (with or without BOM) is tried first; a file that is not valid UTF-8 is
 * read as ISO-8859-1 / Windows-1252 (what spreadsheet programs save in Brazil). Anything with control
 * characters (UTF-16, binary files) or bytes that Windows-1252 leaves undefined is refused.
 */
/** Control characters other than tab, line feed and carriage return. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return true;
  }
  return false;
}
const CP1252_UNDEFINED = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

export class EncodingError extends Error {}

export function decodeCsv(data: Buffer): { text: string; encoding: "utf-8" | "windows-1252" } {
  let text: string;
  let encoding: "utf-8" | "windows-1252" = "utf-8";
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(data);
  } catch {
    if (data.some((b) => CP1252_UNDEFINED.has(b))) throw new EncodingError("neither UTF-8 nor ISO-8859-1");
    text = new TextDecoder("windows-1252").decode(data);
    encoding = "windows-1252";
  }
  if (hasControl(text)) throw new EncodingError("control characters: not a text file");
  return { text, encoding };
}
