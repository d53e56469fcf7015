import { describe, expect, it } from "vitest";
import { isPhoneText } from "../components/new-ticket-contact-field";

describe("isPhoneText: the new-ticket box reads digits as a phone number, anything else as a name", () => {
  it("all digits", () => {
    expect(isPhoneText("5511999998888")).toBe(true);
    expect(isPhoneText(" 5511 ")).toBe(true);
  });
  it("letters or signs", () => {
    expect(isPhoneText("Maria")).toBe(false);
    expect(isPhoneText("+55 11 99999")).toBe(false);
    expect(isPhoneText("")).toBe(false);
  });
});
