import { Writable } from "node:stream";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { loggerOptions, redactUrl } from "./log-redaction.js";

describe("log redaction", () => {
  it("masks reset codes, new passwords and e-mails in the reset URLs, and secret query values", () => {
    expect(redactUrl("/api/resetpasswords/ana%40x.com/123456/NovaSenha1")).toBe("/api/resetpasswords/[redacted]");
    expect(redactUrl("/api/forgetpassword/ana%40x.com")).toBe("/api/forgetpassword/[redacted]");
    expect(redactUrl("/api/tickets?pageNumber=2&token=abc&status=open")).toBe("/api/tickets?pageNumber=2&token=%5Bredacted%5D&status=open");
    expect(redactUrl("/api/tickets?pageNumber=2")).toBe("/api/tickets?pageNumber=2");
  });

  it("keeps the code, the password and the bearer token out of a server's request logs", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = Fastify({ logger: { ...loggerOptions("info"), stream } });
    app.post("/api/resetpasswords/:email/:token/:newPassword", async (request) => {
      request.log.info({ body: { password: "Hunter2pass", currentPassword: "OldPass1" } }, "handled");
      return { ok: true };
    });
    await app.inject({
      method: "POST",
      url: "/api/resetpasswords/ana%40x.com/654321/Hunter2pass",
      headers: { authorization: "Bearer sekrit-token" },
    });
    await app.close();
    const log = lines.join("");
    expect(log).toContain("/api/resetpasswords/[redacted]");
    expect(log).not.toMatch(/654321|Hunter2pass|OldPass1|sekrit-token|ana%40x\.com/);
  });
});
