import { describe, expect, it } from "vitest";
import { emailCampaignRowAction, emailCampaignSecondaryActions, emailCampaignTriggerEnabled, EMAIL_CANCELLABLE } from "../src/index.js";

describe("emailCampaignRowAction (spec 3 §4 'E-mail': RUNNING disabled; MISSING_FILE or ANALYZING disabled; otherwise trigger, enabled only when ACTIVE and source 2)", () => {
  const cases: [string, number, string, boolean][] = [
    ["RUNNING", 2, "running", false],
    ["MISSING_FILE", 2, "analyzing", false],
    ["ANALYZING", 2, "analyzing", false],
    ["ACTIVE", 2, "trigger", true],
    ["ACTIVE", 1, "trigger", false],
    ["TRIGGERING", 2, "trigger", false],
    ["SPLITTING", 2, "trigger", false],
    ["PAUSED", 2, "trigger", false],
    ["ERROR", 2, "trigger", false],
    ["FINISHED", 2, "trigger", false],
    ["CANCELLED", 2, "trigger", false],
    ["SOMETHING_NEW", 2, "trigger", false],
  ];
  for (const [status, source, action, enabled] of cases) {
    it(`${status}, source ${source} → ${action}${action === "trigger" ? (enabled ? " (enabled)" : " (disabled)") : " (disabled)"}`, () => {
      expect(emailCampaignRowAction({ status })).toBe(action);
      expect(emailCampaignTriggerEnabled({ status, source })).toBe(enabled);
    });
  }
});

describe("emailCampaignSecondaryActions (the row's more-actions menu)", () => {
  const cases: [string, string[]][] = [
    ["RUNNING", ["pause", "cancel"]],
    ["TRIGGERING", ["pause", "cancel"]],
    ["PAUSED", ["resume", "cancel"]],
    ["ACTIVE", ["cancel"]],
    ["MISSING_FILE", ["cancel"]],
    ["SPLITTING", ["cancel"]],
    ["ANALYZING", ["cancel"]],
    ["ERROR", []],
    ["FINISHED", []],
    ["CANCELLED", []],
  ];
  for (const [status, actions] of cases) {
    it(`${status} → ${actions.join(", ") || "nothing"}`, () => expect(emailCampaignSecondaryActions({ status })).toEqual(actions));
  }

  it("a cancel is offered while the campaign has not ended", () => {
    expect([...EMAIL_CANCELLABLE].sort()).toEqual(["ACTIVE", "ANALYZING", "MISSING_FILE", "PAUSED", "RUNNING", "SPLITTING", "TRIGGERING"]);
  });
});
