import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailer } from "../../core/mailer.js";
import { buildCompany, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";

interface ReceivedMail {
  to: string[];
  raw: string;
}

let app: TestApp;
let smtp: SMTPServer;
const inbox: ReceivedMail[] = [];
let ipSeq = 0;
/** Each test speaks from its own address so the per-address rate limits do not interfere. */
const freshIp = () => `10.9.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  app = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${port}` });
});
afterAll(async () => {
  await app.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function mailFor(email: string, after = 0, timeoutMs = 10_000): Promise<string> {
  const start = Date.now();
  for (;;) {
    const found = inbox.slice(after).filter((m) => m.to.includes(email));
    if (found.length) return found[found.length - 1]!.raw;
    if (Date.now() - start > timeoutMs) throw new Error(`no e-mail for ${email}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The text of a quoted-printable (or plain) message body. */
function decodeBody(raw: string): string {
  const body = raw.slice(raw.indexOf("\r\n\r\n") + 4);
  if (!/Content-Transfer-Encoding: quoted-printable/i.test(raw)) return body;
  const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}
const codeIn = (raw: string) => /código para redefinir a senha é: (\d{6})/.exec(decodeBody(raw))?.[1];

function forget(email: string, ip = freshIp()) {
  return app.api("POST", `/api/forgetpassword/${encodeURIComponent(email)}`, { headers: { "x-forwarded-for": ip } });
}
function reset(email: string, code: string, password: string, ip = freshIp()) {
  return app.api("POST", `/api/resetpasswords/${encodeURIComponent(email)}/${encodeURIComponent(code)}/${encodeURIComponent(password)}`, {
    headers: { "x-forwarded-for": ip },
  });
}
const login = (email: string, password: string) => app.api("POST", "/api/auth/login", { body: { email, password } });

async function newUser() {
  const companyId = await buildCompany(app.sql);
  return buildUser(app.sql, companyId, { name: "Carla Souza" });
}

describe("password reset", () => {
  it("e-mails a code through SMTP; the code sets the new password and ends the old sessions", async () => {
    const u = await newUser();
    const oldToken = await app.login(u.email);
    const before = inbox.length;
    const res = await forget(u.email.toUpperCase());
    expect(res.statusCode).toBe(200);
    const raw = await mailFor(u.email, before);
    expect(raw).toMatch(new RegExp(`^To: ${u.email.replace(/[.+]/g, "\\$&")}`, "mi"));
    expect(decodeBody(raw)).toContain("Olá, Carla Souza.");
    const code = codeIn(raw);
    expect(code).toMatch(/^\d{6}$/);
    const stored = await app.sql.one<{ code_hash: string }>("SELECT code_hash FROM password_resets WHERE user_id = $1 AND used_at IS NULL", [u.id]);
    expect(stored.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.code_hash).not.toContain(code!);

    const ok = await reset(u.email, code!, "NovaSenha1/?#");
    expect(ok.statusCode).toBe(200);
    expect((await login(u.email, "secret123")).statusCode).toBe(401);
    expect((await login(u.email, "NovaSenha1/?#")).statusCode).toBe(200);
    expect((await app.api("GET", "/api/auth/me", { token: oldToken })).statusCode).toBe(401);

    const again = await reset(u.email, code!, "OutraSenha2");
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe("ERR_INVALID_RESET_CODE");
    expect((await login(u.email, "OutraSenha2")).statusCode).toBe(401);
  });

  it("answers an unknown e-mail with 404 'Email não encontrado', taking as long as a known one", async () => {
    const u = await newUser();
    const t0 = Date.now();
    const unknown = await forget(`ghost-${Date.now()}@nowhere.test`);
    const unknownMs = Date.now() - t0;
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ status: 404, error: "ERR_NO_USER_FOUND", message: "Email não encontrado" });
    const t1 = Date.now();
    expect((await forget(u.email)).statusCode).toBe(200);
    const knownMs = Date.now() - t1;
    // Both answers take at least 400 ms, so the timing does not tell whether the address exists.
    expect(unknownMs).toBeGreaterThanOrEqual(395);
    expect(knownMs).toBeGreaterThanOrEqual(395);
    expect(Math.abs(unknownMs - knownMs)).toBeLessThan(300);
  });

  it("validates the e-mail and the new password rule", async () => {
    const bad = await forget("not-an-email");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.email).toBe("Invalid email");
    const u = await newUser();
    const before = inbox.length;
    await forget(u.email);
    const code = codeIn(await mailFor(u.email, before))!;
    const rule = "Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.";
    for (const weak of ["Abc1234", "abcdefg1", "ABCDEFG1", "Abcdefgh"]) {
      const res = await reset(u.email, code, weak);
      expect(res.statusCode, weak).toBe(400);
      expect(res.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { newPassword: rule } });
    }
    // Refused passwords did not spend the code.
    expect((await reset(u.email, code, "Abcdefg1")).statusCode).toBe(200);
  });

  it("refuses an expired code", async () => {
    const u = await newUser();
    const before = inbox.length;
    await forget(u.email);
    const code = codeIn(await mailFor(u.email, before))!;
    await app.sql.exec("UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE user_id = $1", [u.id]);
    const res = await reset(u.email, code, "Abcdefg1");
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_INVALID_RESET_CODE");
  });

  it("makes a code valid for 15 minutes", async () => {
    const u = await newUser();
    await forget(u.email);
    const row = await app.sql.one<{ minutes: number }>(
      "SELECT round(extract(epoch FROM expires_at - created_at) / 60)::int AS minutes FROM password_resets WHERE user_id = $1",
      [u.id],
    );
    expect(row.minutes).toBe(15);
  });

  it("a new request supersedes the previous code", async () => {
    const u = await newUser();
    let before = inbox.length;
    await forget(u.email);
    const first = codeIn(await mailFor(u.email, before))!;
    before = inbox.length;
    await forget(u.email);
    const second = codeIn(await mailFor(u.email, before))!;
    if (first !== second) {
      expect((await reset(u.email, first, "Abcdefg1")).statusCode).toBe(400);
    }
    expect((await reset(u.email, second, "Abcdefg1")).statusCode).toBe(200);
  });

  it("burns the code after 5 wrong attempts", async () => {
    const u = await newUser();
    const before = inbox.length;
    await forget(u.email);
    const code = codeIn(await mailFor(u.email, before))!;
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) {
      const res = await reset(u.email, wrong, "Abcdefg1");
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe("ERR_INVALID_RESET_CODE");
    }
    const res = await reset(u.email, code, "Abcdefg1");
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_INVALID_RESET_CODE");
    expect((await login(u.email, "secret123")).statusCode).toBe(200);
  });

  it("refuses a code for another user and an unknown e-mail the same way", async () => {
    const a = await newUser();
    const b = await newUser();
    const before = inbox.length;
    await forget(a.email);
    const code = codeIn(await mailFor(a.email, before))!;
    await forget(b.email);
    const cross = await reset(b.email, code, "Abcdefg1");
    expect(cross.statusCode).toBe(400);
    expect(cross.json().error).toBe("ERR_INVALID_RESET_CODE");
    const ghost = await reset("ghost@nowhere.test", code, "Abcdefg1");
    expect(ghost.json().error).toBe("ERR_INVALID_RESET_CODE");
    expect((await reset(a.email, code, "Abcdefg1")).statusCode).toBe(200);
  });

  it("rate-limits requests per address: 5 per minute", async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await forget(`nobody${i}@nowhere.test`, ip)).statusCode);
    expect(statuses.slice(0, 5)).toEqual([404, 404, 404, 404, 404]);
    expect(statuses[5]).toBe(429);
    expect((await forget("nobody@nowhere.test", ip)).json().error).toBe("ERR_TOO_MANY_REQUESTS");
    // Another address is not affected.
    expect((await forget("nobody@nowhere.test")).statusCode).toBe(404);
    const resetIp = freshIp();
    const resets: number[] = [];
    for (let i = 0; i < 11; i++) resets.push((await reset("nobody@nowhere.test", "123456", "Abcdefg1", resetIp)).statusCode);
    expect(resets.filter((s) => s === 429)).toHaveLength(1);
  });

  it("needs no session (public routes)", async () => {
    const res = await app.api("POST", "/api/forgetpassword/x%40y.test", { headers: { "x-forwarded-for": freshIp(), authorization: "Bearer junk" } });
    expect(res.statusCode).toBe(404);
  });
});

describe("mailer without SMTP_URL", () => {
  it("writes the message to the log in development and only a warning in production", async () => {
    const lines: { level: string; obj: object; msg: string }[] = [];
    const log = { info: (obj: object, msg: string) => lines.push({ level: "info", obj, msg }), warn: (obj: object, msg: string) => lines.push({ level: "warn", obj, msg }) };
    await createMailer({ smtpUrl: undefined, mailFrom: "x@y", env: "development" }, log).send({ to: "a@b.test", subject: "Código", text: "Seu código é 123456" });
    expect(lines[0]).toMatchObject({ level: "info" });
    expect(lines[0]!.msg).toContain("123456");
    await createMailer({ smtpUrl: undefined, mailFrom: "x@y", env: "production" }, log).send({ to: "a@b.test", subject: "Código", text: "Seu código é 654321" });
    expect(lines[1]).toMatchObject({ level: "warn" });
    expect(JSON.stringify(lines[1])).not.toContain("654321");
  });
});
