import { describe, expect, it } from "vitest";
import type { SessionStatus } from "@atende/shared";
import { duplicatedNumbers } from "../duplicated-numbers";
import { connectionFormSchema, EMPTY_FORM, officialFormSchema, tabOf } from "../components/connection-form-schema";

const w = (status: SessionStatus, number: string) => ({ status, number, phoneNumberStr: number });

describe("duplicatedNumbers", () => {
  it("reports a number only when two CONNECTED sessions share it", () => {
    expect(duplicatedNumbers([w("CONNECTED", "5511999990000"), w("CONNECTED", "5511999990001")])).toEqual([]);
    expect(duplicatedNumbers([w("CONNECTED", "5511999990000"), w("DISCONNECTED", "5511999990000")])).toEqual([]);
    expect(duplicatedNumbers([w("CONNECTED", "+55 11 99999-0000"), w("CONNECTED", "5511999990000"), w("CONNECTED", "")])).toEqual(["5511999990000"]);
    expect(duplicatedNumbers([w("CONNECTED", ""), w("CONNECTED", "")])).toEqual([]);
  });
});

describe("connection form schema", () => {
  it("applies the name rule of spec §5 except to official connections", () => {
    const short = connectionFormSchema.safeParse({ ...EMPTY_FORM, name: "A" });
    expect(short.success).toBe(false);
    expect(short.error?.issues[0]?.message).toBe("Too Short!");
    expect(connectionFormSchema.safeParse({ ...EMPTY_FORM, name: "x".repeat(51) }).error?.issues[0]?.message).toBe("Too Long!");
    expect(connectionFormSchema.safeParse({ ...EMPTY_FORM, name: "" }).error?.issues[0]?.message).toBe("Required");
    expect(officialFormSchema.safeParse({ ...EMPTY_FORM, name: "" }).success).toBe(true);
  });

  it("requires a greeting with more than one queue", () => {
    const two = connectionFormSchema.safeParse({ ...EMPTY_FORM, name: "Loja", queueIds: [1, 2] });
    expect(two.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["greetingMessage", "backendErrors.ERR_WAPP_GREETING_REQUIRED"]]);
    expect(connectionFormSchema.safeParse({ ...EMPTY_FORM, name: "Loja", queueIds: [1, 2], greetingMessage: "Olá" }).success).toBe(true);
    expect(connectionFormSchema.safeParse({ ...EMPTY_FORM, name: "Loja", queueIds: [1] }).success).toBe(true);
  });

  it("maps fields to their tabs", () => {
    expect([tabOf("name"), tabOf("greetingMessage"), tabOf("maxUseBotQueues"), tabOf("promptId")]).toEqual([0, 1, 2, 3]);
  });
});
