import { describe, expect, it } from "vitest";
import { formatPercent } from "@atende/shared";
import { csvHeader } from "../../components/check-file";
import { variableColumns } from "../csv-header";
import { smsDeliveryPercent } from "../delivery-percent";

describe("SMS list and form helpers", () => {
  it("delivery % is delivered / triggered shown with two decimals the Brazilian way (spec §9), 0,00% before any send", () => {
    expect(formatPercent(smsDeliveryPercent({ delivered: 2, triggered: 3 }), "pt")).toBe("66,67%");
    expect(formatPercent(smsDeliveryPercent({ delivered: 0, triggered: 0 }), "pt")).toBe("0,00%");
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
