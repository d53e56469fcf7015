import { describe, expect, it } from "vitest";
import { parseSmsHour, smsCampaignRowAction, smsCampaignStatusLabel } from "../src/schemas/sms-campaigns.js";

describe("SMS campaign statuses (spec 3 §4)", () => {
  it("labels ACTIVE and READY Ativa, MISSING_FILE and ANALYZING Em Análise, SCHEDULED Agendada, anything else Desconhecido", () => {
    expect(["ACTIVE", "READY", "MISSING_FILE", "ANALYZING", "SCHEDULED", "PAUSED", "FINISHED", "RUNNING", "CANCELLED", "ERROR", "SENDING", ""].map(smsCampaignStatusLabel)).toEqual([
      "Ativa",
      "Ativa",
      "Em Análise",
      "Em Análise",
      "Agendada",
      "Pausada",
      "Finalizada",
      "Em Disparo",
      "Cancelada",
      "Erro",
      "Desconhecido",
      "Desconhecido",
    ]);
  });

  it("row action: RUNNING pause; SCHEDULED scheduled; MISSING_FILE/ANALYZING disabled; PAUSED resume; otherwise trigger", () => {
    expect(["RUNNING", "SCHEDULED", "MISSING_FILE", "ANALYZING", "PAUSED", "READY", "ACTIVE", "WHATEVER", "FINISHED", "CANCELLED", "ERROR"].map(smsCampaignRowAction)).toEqual([
      "pause",
      "scheduled",
      "disabled",
      "disabled",
      "resume",
      "trigger",
      "trigger",
      "trigger",
      "none",
      "none",
      "none",
    ]);
  });
});

describe("parseSmsHour", () => {
  it("reads HH:mm or an hour into minutes after midnight; empty is no hour", () => {
    expect([parseSmsHour("08:30"), parseSmsHour("8"), parseSmsHour(23), parseSmsHour("00:00"), parseSmsHour(""), parseSmsHour(null), parseSmsHour(undefined)]).toEqual([510, 480, 1380, 0, null, null, null]);
    expect([parseSmsHour("24:00"), parseSmsHour("12:60"), parseSmsHour("x"), parseSmsHour(24), parseSmsHour(1.5), parseSmsHour({})]).toEqual(["invalid", "invalid", "invalid", "invalid", "invalid", "invalid"]);
  });
});
