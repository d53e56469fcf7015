import { describe, expect, it } from "vitest";
import { formatDecimal, formatMoney, formatMoneyInput, formatPercent, parseMoney } from "../src/index.js";

describe("money", () => {
  it("reads amounts typed the Brazilian way", () => {
    expect(parseMoney("99,90")).toBe(99.9);
    expect(parseMoney("1.234,56")).toBe(1234.56);
    expect(parseMoney("R$ 1.234,56")).toBe(1234.56);
    expect(parseMoney("1234")).toBe(1234);
    expect(parseMoney("1.234")).toBe(1234);
    expect(parseMoney("1.234.567,8")).toBe(1234567.8);
    expect(parseMoney("99.90")).toBe(99.9);
    expect(parseMoney("0,5")).toBe(0.5);
    expect(parseMoney(",5")).toBe(0.5);
    expect(parseMoney("99,")).toBe(99);
    expect(parseMoney("")).toBeNull();
    expect(parseMoney("  ")).toBeNull();
  });
  it("refuses texts that are not amounts", () => {
    for (const bad of ["abc", "1,2,3", "9,999", "12.34.5", "1.23,4", ",", "1e3"]) expect(parseMoney(bad), bad).toBeNaN();
  });
  it("writes amounts the Brazilian way", () => {
    expect(formatMoney(99.9)).toBe("R$\u00a099,90");
    expect(formatMoney(1234.5)).toBe("R$\u00a01.234,50");
    expect(formatMoneyInput(99.9)).toBe("99,90");
    expect(formatMoneyInput(1234.56)).toBe("1.234,56");
    expect(formatMoneyInput(0)).toBe("0,00");
  });
});

describe("percentages and decimals", () => {
  it("follow the language, pt by default", () => {
    expect(formatPercent(100)).toBe("100,00%");
    expect(formatPercent(100 / 3, "pt")).toBe("33,33%");
    expect(formatPercent(37.5, "en")).toBe("37.50%");
    expect(formatPercent(37.5, "es")).toBe("37,50\u00a0%");
    expect(formatPercent(50, "pt", 0)).toBe("50%");
    expect(formatDecimal(4.5, "pt")).toBe("4,50");
    expect(formatDecimal(4.5, "en")).toBe("4.50");
  });
});
