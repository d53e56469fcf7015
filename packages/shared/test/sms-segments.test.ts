import { describe, expect, it } from "vitest";
import { countSmsSegments, smsEncoding } from "../src/sms-segments.js";

describe("SMS segments", () => {
  it("uses GSM-7 for the default alphabet, extension characters counting two septets", () => {
    expect(smsEncoding("Olá! Sua fatura vence amanhã.")).toBe("UCS-2"); // 'á' and 'ã' are not in GSM-7
    expect(smsEncoding("Ola! Sua fatura de R$ 10,00 vence amanha. Cod: {ABC}")).toBe("GSM-7");
    const r = countSmsSegments("€[]");
    expect(r).toMatchObject({ encoding: "GSM-7", units: 6, segments: 1, remaining: 154 });
  });

  it("fits 160 GSM-7 characters in one segment and splits longer texts in 153s", () => {
    expect(countSmsSegments("a".repeat(160))).toMatchObject({ segments: 1, remaining: 0 });
    expect(countSmsSegments("a".repeat(161))).toMatchObject({ segments: 2, remaining: 145 });
    expect(countSmsSegments("a".repeat(306))).toMatchObject({ segments: 2, remaining: 0 });
    expect(countSmsSegments("a".repeat(307))).toMatchObject({ segments: 3 });
  });

  it("never splits an extension character across segments", () => {
    // 152 septets then '€' (2 septets) would cross the 153 boundary: it opens the next segment.
    expect(countSmsSegments("a".repeat(152) + "€" + "a".repeat(10))).toMatchObject({ units: 164, segments: 2, remaining: 141 });
  });

  it("uses UCS-2 with 70 / 67 code units when any other character appears, and names it", () => {
    const r = countSmsSegments("Promoção");
    expect(r).toMatchObject({ encoding: "UCS-2", units: 8, segments: 1, remaining: 62 });
    expect(r.nonGsmCharacters).toEqual(["ç", "ã"]);
    expect(countSmsSegments("ç".repeat(70)).segments).toBe(1);
    expect(countSmsSegments("ç".repeat(71))).toMatchObject({ segments: 2, remaining: 63 });
    expect(countSmsSegments("😀".repeat(35))).toMatchObject({ units: 70, segments: 1 });
    expect(countSmsSegments("😀".repeat(36))).toMatchObject({ units: 72, segments: 2 });
  });

  it("counts nothing for an empty text", () => {
    expect(countSmsSegments("")).toMatchObject({ segments: 0, units: 0 });
  });
});

describe("SMS template variables", () => {
  it("lists placeholder names in order of first use, once, and fills them", async () => {
    const { smsTemplateVariables, fillSmsTemplate } = await import("../src/sms-variables.js");
    expect(smsTemplateVariables("Oi {{nome}}, seu código é {{ codigo }}. {{nome}}!")).toEqual(["nome", "codigo"]);
    expect(smsTemplateVariables("sem variáveis {x} {{}}")).toEqual([]);
    expect(fillSmsTemplate("Oi {{nome}}, {{falta}}.", { nome: "Ana" })).toBe("Oi Ana, .");
  });
});
