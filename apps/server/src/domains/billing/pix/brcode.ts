/**
 * The Pix BR Code: an EMV QRCPS merchant-presented payload (Banco Central, "Manual de Padrões para
 * Iniciação do Pix"). Fields are TLV: two-digit id, two-digit length, value; the last field (63) is a
 * CRC16-CCITT-FALSE over the whole payload including "6304".
 */

const GUI = "br.gov.bcb.pix";

export interface BrCodeInput {
  /** Dynamic charge: the PSP's payload location (URL without "https://"), field 26-25. */
  location?: string;
  /** Static charge: the receiver's Pix key, field 26-01. */
  key?: string;
  /** BRL, e.g. 99.9 → "99.90" in field 54; omitted when undefined. */
  amount?: number;
  merchantName: string;
  merchantCity: string;
  /** Field 62-05: the static charge's identifier (up to 25 characters); dynamic charges use "***". */
  txid?: string;
}

/** CRC16-CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection, no final xor), 4 hex digits. */
export function crc16(payload: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(payload, "utf8")) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

function field(id: string, value: string): string {
  const length = Buffer.byteLength(value, "utf8");
  if (length > 99) throw new Error(`BR Code field ${id} is longer than 99 bytes`);
  return `${id}${String(length).padStart(2, "0")}${value}`;
}

/** Names and cities go without accents and within the field's limit (59: 25, 60: 15 characters). */
function plain(text: string, max: number): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "")
    .trim()
    .slice(0, max);
}

export function buildBrCode(input: BrCodeInput): string {
  if (!input.location === !input.key) throw new Error("A BR Code has either a location (dynamic) or a key (static)");
  const account = field("00", GUI) + (input.location ? field("25", input.location) : field("01", input.key!));
  const txid = input.location ? "***" : input.txid || "***";
  const body =
    field("00", "01") +
    (input.location ? field("01", "12") : "") +
    field("26", account) +
    field("52", "0000") +
    field("53", "986") +
    (input.amount !== undefined ? field("54", input.amount.toFixed(2)) : "") +
    field("58", "BR") +
    field("59", plain(input.merchantName, 25) || "N") +
    field("60", plain(input.merchantCity, 15) || "BRASILIA") +
    field("62", field("05", txid)) +
    "6304";
  return body + crc16(body);
}
