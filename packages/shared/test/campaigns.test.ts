import { describe, expect, it } from "vitest";
import { campaignDeliveryPercent, formatPercent, campaignRowAction, campaignStatusLabel } from "../src/index.js";

/** Spec 3 §4 (labels, row actions) and §9 (delivery percent), one rule for the web list. */
describe("campaign list rules", () => {
  it("labels every WhatsApp status in Portuguese and anything else 'Desconhecido'", () => {
    expect(
      ["READY", "ANALYZING", "ERROR", "RUNNING", "FINISHED", "WAITING", "PAUSED", "CANCELLED", "SCHEDULED", ""].map(campaignStatusLabel),
    ).toEqual(["Ativa", "Em Análise", "Erro", "Em Disparo", "Finalizada", "Aguardando", "Pausada", "Cancelada", "Desconhecido", "Desconhecido"]);
  });

  it("row action by status", () => {
    const c = (status: string, countProcessed = 0) => campaignRowAction({ status, countProcessed, errorMessage: "Falhou" });
    expect(c("FINISHED")).toEqual({ kind: "finished" });
    expect(c("ERROR")).toEqual({ kind: "error", message: "Falhou" });
    expect(c("RUNNING")).toEqual({ kind: "pause" });
    expect(c("WAITING")).toEqual({ kind: "waiting" });
    expect(c("READY")).toEqual({ kind: "start", disabled: false });
    expect(c("ANALYZING", 5)).toEqual({ kind: "start", disabled: true });
    // not READY and nothing processed: disabled; a paused campaign that sent something: enabled
    expect(c("PAUSED", 0)).toEqual({ kind: "start", disabled: true });
    expect(c("PAUSED", 3)).toEqual({ kind: "start", disabled: false });
    expect(c("CANCELLED", 0)).toEqual({ kind: "start", disabled: true });
  });

  it("delivery percent = delivered / (total − invalid), two decimals", () => {
    expect(campaignDeliveryPercent({ countDelivered: 333, countTotal: 1000, countInvalid: 100 })).toBe(37);
    expect(formatPercent(campaignDeliveryPercent({ countDelivered: 1, countTotal: 3, countInvalid: 0 }))).toBe("33,33%");
    expect(campaignDeliveryPercent({ countDelivered: 0, countTotal: 5, countInvalid: 5 })).toBe(0);
  });
});
