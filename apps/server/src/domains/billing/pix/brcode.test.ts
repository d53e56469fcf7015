import { describe, expect, it } from "vitest";
import { buildBrCode, crc16 } from "./brcode.js";

/**
 * An independent TLV reader for the tests (not the builder's code): walks id/length/value pairs and
 * recomputes the CRC with a table-free bitwise loop written separately here.
 */
function decode(payload: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  while (i < payload.length) {
    const id = payload.slice(i, i + 2);
    const len = Number.parseInt(payload.slice(i + 2, i + 4), 10);
    if (!/^\d{2}$/.test(id) || Number.isNaN(len)) throw new Error(`bad TLV at ${i}`);
    out.set(id, payload.slice(i + 4, i + 4 + len));
    i += 4 + len;
  }
  if (i !== payload.length) throw new Error("TLV overruns the payload");
  return out;
}

function referenceCrc(text: string): number {
  let crc = 0xffff;
  for (let k = 0; k < text.length; k++) {
    let x = ((crc >> 8) ^ text.charCodeAt(k)) & 0xff;
    x ^= x >> 4;
    crc = ((crc << 8) ^ (x << 12) ^ (x << 5) ^ x) & 0xffff;
  }
  return crc;
}

function checkCrc(payload: string): boolean {
  const body = payload.slice(0, -4);
  return body.endsWith("6304") && referenceCrc(body) === Number.parseInt(payload.slice(-4), 16);
}

// Published examples: the static one of the Banco Central's "Manual de Padrões para Iniciação do Pix"
// (key 123e4567-..., Fulano de Tal, BRASILIA, txid ***), and a real static code with amount and txid.
const MANUAL_STATIC =
  "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";
const REAL_WITH_AMOUNT =
  "0002010101021226630014BR.GOV.BCB.PIX0132420ab7c44d6346d4809ecd3eebc129ec0205BARBA52040000530398654041.005802BR5922RAFAEL DE ANDRADE DIAS6004LAJE62160512AG000000023863047C58";

describe("BR Code", () => {
  it("CRC16-CCITT-FALSE matches the published examples and the standard check value", () => {
    expect(crc16("123456789")).toBe("29B1");
    expect(crc16(MANUAL_STATIC.slice(0, -4))).toBe("1D3D");
    expect(crc16(REAL_WITH_AMOUNT.slice(0, -4))).toBe("7C58");
    expect(checkCrc(MANUAL_STATIC) && checkCrc(REAL_WITH_AMOUNT)).toBe(true);
  });

  it("rebuilds the manual's static example byte for byte", () => {
    expect(buildBrCode({ key: "123e4567-e12b-12d1-a456-426655440000", merchantName: "Fulano de Tal", merchantCity: "BRASILIA" })).toBe(MANUAL_STATIC);
  });

  it("a dynamic charge: location in 26-25, single use, amount, *** txid, valid CRC", () => {
    const code = buildBrCode({ location: "pix.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25", amount: 1234.5, merchantName: "Atende Plataforma Ltda São Paulo", merchantCity: "São Paulo" });
    const f = decode(code);
    expect(f.get("00")).toBe("01");
    expect(f.get("01")).toBe("12");
    const account = decode(f.get("26")!);
    expect(account.get("00")).toBe("br.gov.bcb.pix");
    expect(account.get("25")).toBe("pix.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25");
    expect(f.get("52")).toBe("0000");
    expect(f.get("53")).toBe("986");
    expect(f.get("54")).toBe("1234.50");
    expect(f.get("58")).toBe("BR");
    expect(f.get("59")).toBe("Atende Plataforma Ltda Sa");
    expect(f.get("60")).toBe("Sao Paulo");
    expect(decode(f.get("62")!).get("05")).toBe("***");
    expect(checkCrc(code)).toBe(true);
  });

  it("a static charge carries its txid", () => {
    const code = buildBrCode({ key: "+5561999999999", amount: 10, txid: "FATURA42", merchantName: "Atende", merchantCity: "Brasilia" });
    expect(decode(decode(code).get("62")!).get("05")).toBe("FATURA42");
    expect(checkCrc(code)).toBe(true);
    expect(checkCrc(code.slice(0, -1) + (code.endsWith("0") ? "1" : "0"))).toBe(false);
  });
});
