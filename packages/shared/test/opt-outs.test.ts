import { describe, expect, it } from "vitest";
import { isOptOutReply, optOutAddressKey } from "../src/opt-outs.js";

describe("opt-out replies", () => {
  it("count when the whole reply is a stop word, in any case, accents or punctuation", () => {
    for (const text of ["SAIR", "sair", " Parar! ", "STOP", "Descadastrar.", "cancelar", "PARE"]) expect(isOptOutReply(text), text).toBe(true);
  });
  it("do not count inside a longer message", () => {
    for (const text of ["não quero parar de receber", "stop by tomorrow", "sair?? como assim", ""]) expect(isOptOutReply(text), text).toBe(false);
  });
});

describe("opt-out address keys", () => {
  it("keep digits of phones and lower-case e-mail addresses", () => {
    expect(optOutAddressKey("sms", "+55 (11) 99999-0000")).toBe("5511999990000");
    expect(optOutAddressKey("email", "  Ana@Example.COM ")).toBe("ana@example.com");
  });
});
