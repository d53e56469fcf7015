import { describe, expect, it } from "vitest";
import { classifySmtpError } from "./classify.js";

// nodemailer's error shape (lib/smtp-connection: `responseCode`, `code`, `response`)
describe("SMTP failures (RFC 5321 §4.2.1)", () => {
  it("5yz is permanent, 4yz and a lost connection are retried", () => {
    expect(classifySmtpError({ responseCode: 550, code: "EENVELOPE", response: "550 5.1.1 No such user" })).toEqual({ kind: "rejected", code: 550, message: "550 5.1.1 No such user" });
    expect(classifySmtpError({ responseCode: 452, code: "EENVELOPE", response: "452 4.2.2 Mailbox full" })).toMatchObject({ kind: "retry", code: 452 });
    expect(classifySmtpError({ code: "ECONNECTION", message: "Connection closed unexpectedly" })).toMatchObject({ kind: "retry", code: null });
    expect(classifySmtpError({ code: "ETIMEDOUT", message: "Greeting never received" })).toMatchObject({ kind: "retry" });
    expect(classifySmtpError(new Error("bad address"))).toMatchObject({ kind: "rejected", code: null });
  });
});
