import { describe, expect, it } from "vitest";
import { emailCampaignRowAction, emailCampaignTriggerEnabled, EMAIL_CANCELLABLE } from "../src/index.js";

describe("emailCampaignRowAction (spec 3 §4 'E-mail', with pause and resume)", () => {
  const cases: [string, number, string, boolean][] = [
    ["RUNNING", 2, "pause", false],
    ["TRIGGERING", 2, "pause", false],
    ["PAUSED", 1, "resume", false],
    ["MISSING_FILE", 2, "disabled", false],
    ["SPLITTING", 2, "disabled", false],
    ["ANALYZING", 2, "disabled", false],
    ["ERROR", 2, "error", false],
    ["FINISHED", 2, "none", false],
    ["CANCELLED", 2, "none", false],
    ["ACTIVE", 2, "trigger", true],
    ["ACTIVE", 1, "trigger", false],
    ["SOMETHING_NEW", 2, "trigger", false],
  ];
  for (const [status, source, action, enabled] of cases) {
    it(`${status}, source ${source} → ${action}${action === "trigger" ? (enabled ? " (enabled)" : " (disabled)") : ""}`, () => {
      expect(emailCampaignRowAction({ status, source })).toBe(action);
      expect(emailCampaignTriggerEnabled({ status, source })).toBe(enabled);
    });
  }

  it("a cancel is offered while the campaign has not ended", () => {
    expect([...EMAIL_CANCELLABLE].sort()).toEqual(["ACTIVE", "ANALYZING", "MISSING_FILE", "PAUSED", "RUNNING", "SPLITTING", "TRIGGERING"]);
  });
});
