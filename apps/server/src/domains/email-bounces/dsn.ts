/**
 * Delivery status notifications (RFC 3464) read from a raw message: a `multipart/report;
 * report-type=delivery-status` (RFC 6522) whose `message/delivery-status` part holds one block of
 * per-message fields, then one block per recipient, blocks separated by blank lines. The message comes
 * from whoever reaches the bounce listener, so the reader is defensive: bounded depth and part count,
 * no assumption that a field is present, and nothing but the fields below is kept.
 */
export interface DsnRecipient {
  /** The address the report is about (Final-Recipient, else Original-Recipient), lower case. */
  finalRecipient: string;
  originalRecipient: string;
  /** failed | delayed | delivered | relayed | expanded (lower case). */
  action: string;
  /** The status code alone, e.g. "5.1.1". */
  status: string;
  diagnostic: string;
}

const MAX_DEPTH = 4;
const MAX_PARTS = 50;
const MAX_RECIPIENTS = 100;

/** Header block → lower-case name → value (continuation lines unfolded; the first occurrence kept). */
function headerFields(block: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i <= 0) continue;
    const name = line.slice(0, i).trim().toLowerCase();
    if (!out.has(name)) out.set(name, line.slice(i + 1).trim());
  }
  return out;
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const m = /\r?\n\r?\n/.exec(raw);
  if (!m) return { headers: headerFields(raw), body: "" };
  return { headers: headerFields(raw.slice(0, m.index)), body: raw.slice(m.index + m[0].length) };
}

/** `type/subtype` and the parameters of a Content-Type value (quoted or not). */
function contentType(value: string | undefined): { type: string; params: Map<string, string> } {
  const [type = "", ...rest] = (value ?? "text/plain").split(";");
  const params = new Map<string, string>();
  for (const p of rest) {
    const m = /^\s*([^=\s]+)\s*=\s*(?:"([^"]*)"|([^\s;]*))/.exec(p);
    if (m) params.set(m[1]!.toLowerCase(), m[2] ?? m[3] ?? "");
  }
  return { type: type.trim().toLowerCase(), params };
}

function decodeBody(body: string, encoding: string | undefined): string {
  const enc = (encoding ?? "").trim().toLowerCase();
  if (enc === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (enc === "quoted-printable") {
    const soft = body.replace(/=\r?\n/g, "");
    return Buffer.from(soft.replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), "latin1").toString("utf8");
  }
  return body;
}

/** The parts of a multipart body (RFC 2046 §5.1.1): between `--boundary` lines, up to `--boundary--`. */
function multipartParts(body: string, boundary: string): string[] {
  const parts: string[] = [];
  const lines = body.split(/\r?\n/);
  let current: string[] | null = null;
  for (const line of lines) {
    const trimmed = line.replace(/[ \t]+$/, "");
    if (trimmed === `--${boundary}--`) break;
    if (trimmed === `--${boundary}`) {
      if (current) parts.push(current.join("\r\n"));
      if (parts.length >= MAX_PARTS) return parts;
      current = [];
      continue;
    }
    current?.push(line);
  }
  if (current) parts.push(current.join("\r\n"));
  return parts;
}

/** The decoded text of the first (message|message/global)-delivery-status part, searched depth first. */
function deliveryStatusText(raw: string, depth = 0): string | null {
  if (depth > MAX_DEPTH) return null;
  const { headers, body } = splitHeaders(raw);
  const { type, params } = contentType(headers.get("content-type"));
  if (type === "message/delivery-status" || type === "message/global-delivery-status") return decodeBody(body, headers.get("content-transfer-encoding"));
  if (!type.startsWith("multipart/")) return null;
  const boundary = params.get("boundary");
  if (!boundary) return null;
  for (const part of multipartParts(body, boundary)) {
    const found = deliveryStatusText(part, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** `rfc822; someone@example.com` → `someone@example.com` (lower case, angle brackets dropped). */
function addressOf(value: string | undefined): string {
  if (!value) return "";
  const i = value.indexOf(";");
  return (i >= 0 ? value.slice(i + 1) : value).trim().replace(/^<|>$/g, "").toLowerCase();
}

/**
 * The per-recipient blocks of the report, or null when the message is not a delivery status report.
 * Status keeps only its code ("5.0.0 (permanent failure)" → "5.0.0").
 */
export function parseDsn(raw: string): DsnRecipient[] | null {
  const text = deliveryStatusText(raw);
  if (text === null) return null;
  const blocks = text
    .split(/\r?\n(?:[ \t]*\r?\n)+/)
    .map((b) => b.trim())
    .filter(Boolean);
  const out: DsnRecipient[] = [];
  // the first block holds the per-message fields (Reporting-MTA, ...)
  for (const block of blocks.slice(1, MAX_RECIPIENTS + 1)) {
    const f = headerFields(block);
    const finalRecipient = addressOf(f.get("final-recipient"));
    const originalRecipient = addressOf(f.get("original-recipient"));
    if (!finalRecipient && !originalRecipient) continue;
    out.push({
      finalRecipient: finalRecipient || originalRecipient,
      originalRecipient,
      action: (f.get("action") ?? "").trim().toLowerCase(),
      status: /^\d\.\d{1,3}\.\d{1,3}/.exec((f.get("status") ?? "").trim())?.[0] ?? "",
      diagnostic: (f.get("diagnostic-code") ?? "").replace(/\s+/g, " ").slice(0, 500),
    });
  }
  return out;
}

/** RFC 3464 §2.3.3 and RFC 3463: a permanent failure is Action `failed` with a Status of class 5. */
export const isHardBounce = (r: DsnRecipient) => r.action === "failed" && r.status.startsWith("5.");
