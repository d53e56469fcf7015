import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutgoingMail } from "./driver.js";
import { SmtpDriver } from "./smtp-driver.js";

/**
 * The pooled driver against a real SMTP server on loopback (`smtp-server`), counting the TCP
 * connections the server accepts: a pool that opened one connection per message would pay a TCP +
 * EHLO handshake per e-mail and could not carry the campaign rate.
 */
let server: SMTPServer;
let url: string;
let connections = 0;
let open = 0;
let maxOpen = 0;
let messages = 0;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    closeTimeout: 200,
    onConnect(_session, callback) {
      connections++;
      open++;
      maxOpen = Math.max(maxOpen, open);
      callback();
    },
    onClose() {
      open--;
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on("end", () => {
        messages++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const mail = (n: number): OutgoingMail => ({
  companyId: 1,
  from: "news@loja.test",
  to: `cliente${n}@x.test`,
  subject: `Oferta ${n}`,
  html: `<p>Oi ${n}</p>`,
  text: `Oi ${n}`,
});

describe("the pooled SMTP driver", () => {
  it("sends one message after another over one connection", async () => {
    connections = 0;
    messages = 0;
    const driver = new SmtpDriver(url, 5);
    try {
      for (let i = 0; i < 12; i++) expect((await driver.send(mail(i))).kind).toBe("accepted");
    } finally {
      await driver.close();
    }
    expect(messages).toBe(12);
    expect(connections).toBe(1);
  });

  it("answers retry when the relay cannot be reached", async () => {
    const closed = new SMTPServer({ logger: false });
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const driver = new SmtpDriver(`smtp://127.0.0.1:${port}`, 2);
    try {
      expect(await driver.send(mail(1))).toMatchObject({ kind: "retry" });
      expect(driver.inFlight()).toBe(0);
    } finally {
      await driver.close();
    }
  });

  it("keeps a reused connection quick: Nagle's algorithm off (each message waited ~40 ms for a delayed ACK)", async () => {
    const driver = new SmtpDriver(url, 1);
    try {
      await driver.send(mail(0));
      const t0 = Date.now();
      for (let i = 1; i <= 20; i++) await driver.send(mail(i));
      // with Nagle on, every message pays the server's delayed ACK (40 ms): 20 messages >= 800 ms
      expect(Date.now() - t0).toBeLessThan(600);
    } finally {
      await driver.close();
    }
  });

  it("keeps an implicit-TLS (smtps://) connection quick too: TLS over a socket with Nagle off", async () => {
    // smtp-server's own test certificate: the URL's tls.* options reach the TLS connection
    let tlsMessages = 0;
    const secure = new SMTPServer({
      secure: true,
      authOptional: true,
      disabledCommands: ["AUTH"],
      logger: false,
      closeTimeout: 200,
      onData(stream, session, callback) {
        expect(session.secure).toBe(true);
        stream.resume();
        stream.on("end", () => {
          tlsMessages++;
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => secure.listen(0, "127.0.0.1", resolve));
    const port = (secure.server.address() as AddressInfo).port;
    const driver = new SmtpDriver(`smtps://127.0.0.1:${port}/?tls.rejectUnauthorized=false`, 1);
    try {
      await driver.send(mail(0));
      const t0 = Date.now();
      for (let i = 1; i <= 20; i++) await driver.send(mail(i));
      expect(Date.now() - t0).toBeLessThan(600);
      expect(tlsMessages).toBe(21);
    } finally {
      await driver.close();
      await new Promise<void>((resolve) => secure.close(() => resolve()));
    }
  });

  it("opens at most its connections for concurrent sends, and says when one is free", async () => {
    connections = 0;
    messages = 0;
    maxOpen = 0;
    const driver = new SmtpDriver(url, 3);
    try {
      const sends: Promise<unknown>[] = [];
      let busyWhenFull = 0;
      for (let i = 0; i < 30; i++) {
        if (!driver.hasFreeConnection()) busyWhenFull++;
        await driver.connectionFree();
        expect(driver.inFlight()).toBeLessThan(3);
        sends.push(driver.send(mail(i)));
      }
      await Promise.all(sends);
      expect(busyWhenFull).toBeGreaterThan(0);
    } finally {
      await driver.close();
    }
    expect(messages).toBe(30);
    expect(connections).toBeLessThanOrEqual(3);
    expect(maxOpen).toBeLessThanOrEqual(3);
  });
});
