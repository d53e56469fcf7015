import { describe, expect, it } from "vitest";
import { csvHeader, variableColumns } from "../csv-header";
import { smsDeliveryPercent } from "../delivery-percent";

describe("SMS list and form helpers", () => {
  it("delivery % is delivered / triggered with two decimals (spec §9), 0.00 before any send", () => {
    expect(smsDeliveryPercent({ delivered: 2, triggered: 3 })).toBe("66.67");
    expect(smsDeliveryPercent({ delivered: 0, triggered: 0 })).toBe("0.00");
  });

  it("reads the CSV header (BOM, CRLF) and lists the variable columns with their index", async () => {
    const header = await csvHeader(new Blob(["\uFEFFtelefone;cpf;email;nome;vencimento\r\n5511;1;a@x;Ana;10/12\r\n"]));
    expect(header).toEqual(["telefone", "cpf", "email", "nome", "vencimento"]);
    expect(variableColumns(header)).toEqual([
      { index: 3, name: "nome" },
      { index: 4, name: "vencimento" },
    ]);
  });
});
