import { describe, expect, it } from "vitest";
import { portfolioMessagingLimit, templateCsvLayout, templateTypeOf, validateCampaignTemplate } from "../src/index.js";

describe("portfolio messaging limit", () => {
  it("is the highest tier among the numbers, unlimited wins, 250 when none is known", () => {
    expect(portfolioMessagingLimit(["TIER_250", "TIER_2K", "TIER_1K"])).toBe(2000);
    expect(portfolioMessagingLimit(["TIER_100K", "TIER_10K"])).toBe(100000);
    expect(portfolioMessagingLimit(["TIER_1K", "TIER_UNLIMITED"])).toBeNull();
    expect(portfolioMessagingLimit(["tier_10k"])).toBe(10000);
    expect(portfolioMessagingLimit(["", "SOMETHING_NEW"])).toBe(250);
    expect(portfolioMessagingLimit([])).toBe(250);
    expect(portfolioMessagingLimit(["toString", "TIER_50"])).toBe(50);
  });
});

describe("campaign template validation and CSV layout", () => {
  it("orders the columns: media URL, text header variables, body variables (positional by number, named by first use)", () => {
    expect(
      templateCsvLayout({
        status: "APPROVED",
        headerFormat: "TEXT",
        components: [
          { type: "HEADER", format: "TEXT", text: "Oi {{1}}" },
          { type: "BODY", text: "{{10}} e {{2}} e {{1}} e {{2}}" },
        ],
      }),
    ).toEqual({ mediaHeader: null, headerVariables: ["1"], bodyVariables: ["1", "2", "10"], columns: 4 });
    expect(
      templateCsvLayout({ status: "APPROVED", headerFormat: "DOCUMENT", components: [{ type: "HEADER", format: "DOCUMENT" }, { type: "BODY", text: "{{nome}} pague {{valor}}, {{nome}}" }] }),
    ).toEqual({ mediaHeader: "DOCUMENT", headerVariables: [], bodyVariables: ["nome", "valor"], columns: 3 });
  });

  it("refuses what a CSV row cannot fill and explains media headers", () => {
    const body = { type: "BODY", text: "Oi" };
    expect(validateCampaignTemplate({ status: "", headerFormat: "", components: [body] })).toEqual({ valid: false, message: "Template não aprovado pela Meta (status desconhecido)" });
    expect(validateCampaignTemplate({ status: "PAUSED", headerFormat: "", components: [body] }).message).toBe("Template não aprovado pela Meta (status PAUSED)");
    expect(
      validateCampaignTemplate({ status: "APPROVED", headerFormat: "", components: [body, { type: "BUTTONS", buttons: [{ type: "COPY_CODE", text: "Copiar" }] }] }),
    ).toEqual({ valid: false, message: 'O botão "Copiar" (COPY_CODE) precisa de um valor por destinatário, o que as campanhas não suportam' });
    // a static URL, a phone number and quick replies need nothing per row
    expect(
      validateCampaignTemplate({
        status: "APPROVED",
        headerFormat: "",
        components: [body, { type: "BUTTONS", buttons: [{ type: "URL", text: "Site", url: "https://loja.test" }, { type: "PHONE_NUMBER", text: "Ligar" }, { type: "QUICK_REPLY", text: "Sim" }] }],
      }),
    ).toEqual({ valid: true, message: "Template ativo" });
    expect(validateCampaignTemplate({ status: "APPROVED", headerFormat: "PRODUCT", components: [body] })).toEqual({
      valid: false,
      message: "Cabeçalho do tipo PRODUCT não é suportado em campanhas",
    });
  });

  it("maps header formats to the type catalogue", () => {
    expect(templateTypeOf("")).toEqual({ id: 1, name: "TEXT" });
    expect(templateTypeOf("image")).toEqual({ id: 2, name: "IMAGE" });
    expect(templateTypeOf("PRODUCT")).toBeUndefined();
  });
});
