import { describe, expect, it } from "vitest";
import { contactKey, contactKeys, normalizePhone, phoneVariants } from "./phone.js";

describe("normalizePhone", () => {
  it.each([
    ["+55 (11) 98888-7777", "5511988887777"],
    ["5511988887777", "5511988887777"],
    ["11 98888-7777", "5511988887777"],
    ["(21) 3333-4444", "552133334444"],
    ["551188887777", "5511988887777"], // a mobile in the 8-digit form gets its ninth digit
    ["+55 11 8888-7777", "5511988887777"],
    ["551133334444", "551133334444"], // a landline has no ninth digit
    ["+1 (650) 555-1234", "16505551234"],
    ["0049 151 12345678", "4915112345678"],
    ["+49 151 12345678", "4915112345678"],
  ])("%s → %s", (input, stored) => {
    expect(normalizePhone(input)).toBe(stored);
  });

  it("refuses what cannot be a phone number", () => {
    expect(normalizePhone("1234567")).toBeNull();
    expect(normalizePhone("1234567890123456")).toBeNull();
    expect(normalizePhone("abc")).toBeNull();
  });
});

describe("variants and keys", () => {
  it("a Brazilian mobile is also found in its 8-digit form; other numbers only as they are", () => {
    expect(phoneVariants("5511988887777")).toEqual(["5511988887777", "551188887777"]);
    expect(phoneVariants("551133334444")).toEqual(["551133334444"]);
    expect(phoneVariants("16505551234")).toEqual(["16505551234"]);
  });

  it("business-scoped user ids and group ids are keys as they are", () => {
    expect(contactKey("BR.1502576394655843")).toBe("BR.1502576394655843");
    expect(contactKeys("US.ENT.11815799212886844830")).toEqual(["US.ENT.11815799212886844830"]);
    expect(contactKey("120363041234567890", true)).toBe("120363041234567890");
    expect(contactKeys("551188887777")).toEqual(["5511988887777", "551188887777"]);
  });
});
