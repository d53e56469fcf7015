import { describe, expect, it } from "vitest";
import { campaignFileColumns, campaignHeaderCells, CAMPAIGN_MESSAGES } from "../src/index.js";

/** The header rule the analyses and the campaign forms share (spec 3 §5). */
describe("campaignFileColumns and campaignHeaderCells", () => {
  const check = (text: string) => {
    const r = campaignFileColumns(campaignHeaderCells(text));
    return "refusal" in r ? CAMPAIGN_MESSAGES.header(r.refusal) : r.columns;
  };
  it("comma-separated: the separator message", () => {
    expect(check("telefone,cpf,email\n1,2,3\n")).toBe("O arquivo deve ter colunas separadas por ponto e vírgula (;).");
  });
  it("a mandatory column missing: the spec's message naming it", () => {
    expect(check("telefone;email;nome\n")).toBe("Faltam os seguintes cabeçalhos obrigatórios: cpf");
    expect(check("nome;valor\r\n")).toBe("Faltam os seguintes cabeçalhos obrigatórios: telefone, cpf, email");
  });
  it("BOM, quotes, case and spaces do not matter; variable columns in file order", () => {
    expect(check('\uFEFF"Telefone"; CPF ;email;nome;"valor"\r\n1;2;3;4;5')).toEqual({ names: ["telefone", "cpf", "email", "nome", "valor"], phone: 0, cpf: 1, email: 2, vars: [3, 4] });
  });
});
