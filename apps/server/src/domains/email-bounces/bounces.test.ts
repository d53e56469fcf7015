import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import SMTPConnection from "nodemailer/lib/smtp-connection/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { FakeSmtp } from "../../../test/fake-smtp/server.js";
import { multiRecipientDsn, simpleDsn } from "../../../test/fixtures/dsn/rfc3464.js";
import { createWithFile, seedEmailWorld, waitStatus, type EmailWorld } from "../email-campaigns/test-fixtures.js";
import { signTrackingToken } from "../email-tracking/tokens.js";
import { parseDsn } from "./dsn.js";
import { bounceListenerOf } from "./routes.js";

/**
 * Asynchronous bounces: campaign e-mails go out through a real SMTP server on loopback (test/fake-smtp)
 * with VERP return paths; the test then plays the receiving MTA and delivers RFC 3464 reports, built
 * like the RFC's own examples (test/fixtures/dsn), over SMTP to the bounce listener (nodemailer's SMTP
 * client, null sender as RFC 3464 §2 asks).
 */

const DOMAIN = "bounces.atende.test";
let app: TestApp;
let smtp: FakeSmtp;
let dataDir: string;
let port: number;
let t: Awaited<ReturnType<typeof buildTenant>>;
let w: EmailWorld;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const p = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return p;
}

beforeAll(async () => {
  smtp = await FakeSmtp.start();
  process.env.CAMPAIGN_SMTP_URL = smtp.url;
  process.env.EMAIL_RATE_PER_SECOND = "40";
  process.env.EMAIL_POLL_MS = "100";
  process.env.BOUNCE_DOMAIN = DOMAIN;
  process.env.BOUNCE_SMTP_PORT = String(await freePort());
  process.env.BOUNCE_SMTP_HOST = "127.0.0.1";
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-bounces-"));
  // ROLE=all runs the listener, as a worker does (a web process opens none: core/roles.test.ts)
  app = await createTestApp({ dataDir, publicUrl: "https://atende.test", role: "all" });
  port = bounceListenerOf(app.ctx)!.port!;
  t = await buildTenant(app);
  w = await seedEmailWorld(app, t.companyId);
});
afterAll(async () => {
  await app.close();
  await smtp.close();
  await rm(dataDir, { recursive: true, force: true });
  delete process.env.BOUNCE_SMTP_PORT;
  delete process.env.BOUNCE_DOMAIN;
});

/** One SMTP transaction to the listener: `MAIL FROM:<>`, RCPT TO each address, DATA. Resolves with the server's answer or rejects with its code. */
async function deliver(to: string[], raw: string): Promise<{ accepted: string[]; rejected: string[] }> {
  const conn = new SMTPConnection({ host: "127.0.0.1", port, secure: false, ignoreTLS: true, name: "mx.receiver.test" });
  await new Promise<void>((resolve, reject) => {
    conn.once("error", reject);
    conn.connect(() => resolve());
  });
  try {
    return await new Promise((resolve, reject) =>
      conn.send({ from: "", to }, raw, (err, info) => (err ? reject(err) : resolve({ accepted: info.accepted as string[], rejected: info.rejected as string[] }))),
    );
  } finally {
    conn.quit();
  }
}

const returnPath = (address: string) => smtp.to(address)[0]!.from;
const rowOf = (campaignId: number, email: string) =>
  app.sql.one<{ id: string; state: string; bounced_at: Date | null; error_message: string; error_code: number | null }>(
    "SELECT id::text, state, bounced_at, error_message, error_code FROM email_campaign_recipients WHERE campaign_id = $1 AND email = $2",
    [campaignId, email],
  );
const counters = (id: number) =>
  app.sql.one<Record<string, number>>("SELECT count_emails_sent, count_emails_delivered, count_emails_not_delivered FROM email_campaigns WHERE id = $1", [id]);

describe("parseDsn", () => {
  it("reads RFC 3464 §9.2's blocks: the folded diagnostic, the status code without its comment", () => {
    const report = parseDsn(
      multiRecipientDsn({
        to: "owner@x.test",
        entries: [
          { recipient: "arathib@vnet.ibm.com", action: "failed", status: "5.0.0 (permanent failure)", diagnostic: "550 'arathib@vnet.IBM.COM' is not a registered gateway user", remoteMta: "vnet.ibm.com" },
          { recipient: "johnh@hpnjld.njd.hp.com", action: "delayed", status: "4.0.0 (hpnjld.njd.jp.com: host name lookup failure)" },
        ],
      }),
    );
    expect(report).toEqual([
      {
        finalRecipient: "arathib@vnet.ibm.com",
        originalRecipient: "arathib@vnet.ibm.com",
        action: "failed",
        status: "5.0.0",
        diagnostic: "smtp; 550 'arathib@vnet.IBM.COM' is not a registered gateway user",
      },
      { finalRecipient: "johnh@hpnjld.njd.hp.com", originalRecipient: "johnh@hpnjld.njd.hp.com", action: "delayed", status: "4.0.0", diagnostic: "" },
    ]);
  });

  it("a message that is not a report is null", () => {
    expect(parseDsn("Subject: oi\r\nContent-Type: text/plain\r\n\r\nAction: failed\r\nStatus: 5.1.1\r\n")).toBeNull();
  });
});

describe("the bounce listener", () => {
  it("accepts only genuine VERP addresses", async () => {
    const forged = `bounces+${signTrackingToken("another secret with at least 32 chars!!", "b", [t.companyId, "1"])}@${DOMAIN}`;
    await expect(deliver([`bounces+1@${DOMAIN}`], simpleDsn({ to: "x", recipient: "a@x.test", status: "5.1.1" }))).rejects.toMatchObject({ responseCode: 550 });
    await expect(deliver([forged], simpleDsn({ to: "x", recipient: "a@x.test", status: "5.1.1" }))).rejects.toMatchObject({ responseCode: 550 });
    await expect(deliver([`postmaster@${DOMAIN}`], simpleDsn({ to: "x", recipient: "a@x.test", status: "5.1.1" }))).rejects.toMatchObject({ responseCode: 550 });
  });

  it("a hard bounce marks the row not delivered once, moves the counters once and opts the address out; 4.x.x is ignored", async () => {
    const id = await createWithFile(app, t.supervisor.token, w, "telefone;cpf;email;nome\n1;;some@dest.test;A\n2;;fica@dest.test;B\n3;;atrasa@dest.test;C\n");
    await waitStatus(app, id, ["ACTIVE"]);
    expect((await app.api("POST", `/api/email/campaigns/${id}/trigger/`, { token: t.supervisor.token })).statusCode).toBe(200);
    await waitStatus(app, id, ["FINISHED"]);
    expect(await counters(id)).toEqual({ count_emails_sent: 3, count_emails_delivered: 3, count_emails_not_delivered: 0 });
    const verp = returnPath("some@dest.test");
    expect(verp).toMatch(new RegExp(`^bounces\\+[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+@${DOMAIN.replace(/\./g, "\\.")}$`));

    // §9.2's shape: the failed block names our address (5.1.1); another failed address and a delayed one ride along
    const hard = multiRecipientDsn({
      to: verp,
      entries: [
        { recipient: "other@elsewhere.test", action: "failed", status: "5.0.0", diagnostic: "550 user unknown" },
        { recipient: "some@dest.test", action: "failed", status: "5.1.1", diagnostic: "550 5.1.1 <some@dest.test>: Recipient address rejected: User unknown", remoteMta: "mx.dest.test" },
        { recipient: "late@elsewhere.test", action: "delayed", status: "4.0.0" },
      ],
    });
    expect(await deliver([verp], hard)).toMatchObject({ accepted: [verp] });
    const row = await rowOf(id, "some@dest.test");
    expect(row).toMatchObject({ state: "not_delivered", error_code: 550, error_message: "Devolvido (5.1.1): smtp; 550 5.1.1 <some@dest.test>: Recipient address rejected: User unknown" });
    expect(row.bounced_at).not.toBeNull();
    expect(await counters(id)).toEqual({ count_emails_sent: 3, count_emails_delivered: 2, count_emails_not_delivered: 1 });
    expect(await app.sql.one("SELECT source, reference FROM opt_outs WHERE company_id = $1 AND channel = 'email' AND address = 'some@dest.test'", [t.companyId])).toEqual({
      source: "bounce",
      reference: `email-campaign:${id}`,
    });

    // the same report again (an MTA retrying): nothing moves
    await deliver([verp], hard);
    expect(await counters(id)).toEqual({ count_emails_sent: 3, count_emails_delivered: 2, count_emails_not_delivered: 1 });

    // §9.1's shape with 4.0.0 (gave up after deferrals), and a delayed notice: transient, ignored
    const late = returnPath("atrasa@dest.test");
    await deliver([late], simpleDsn({ to: late, recipient: "atrasa@dest.test", status: "4.0.0" }));
    await deliver([late], simpleDsn({ to: late, recipient: "atrasa@dest.test", status: "4.4.7", action: "delayed" }));
    expect(await rowOf(id, "atrasa@dest.test")).toMatchObject({ state: "delivered", bounced_at: null });
    // a report about someone else sent to this row's address (several blocks, none ours): ignored
    const stays = returnPath("fica@dest.test");
    await deliver([stays], multiRecipientDsn({ to: stays, entries: [{ recipient: "a@b.test", action: "failed", status: "5.1.1" }, { recipient: "c@d.test", action: "failed", status: "5.1.1" }] }));
    expect(await rowOf(id, "fica@dest.test")).toMatchObject({ state: "delivered", bounced_at: null });
    expect(await counters(id)).toEqual({ count_emails_sent: 3, count_emails_delivered: 2, count_emails_not_delivered: 1 });
    expect(await app.sql.maybe("SELECT 1 FROM opt_outs WHERE company_id = $1 AND address IN ('atrasa@dest.test', 'fica@dest.test')", [t.companyId])).toBeNull();

    // a later campaign skips the bounced address
    const next = await createWithFile(app, t.supervisor.token, w, "telefone;cpf;email;nome\n1;;Some@Dest.test;A\n2;;fica@dest.test;B\n");
    await waitStatus(app, next, ["ACTIVE"]);
    const rows = await app.sql.many("SELECT email, state, invalid_reason FROM email_campaign_recipients WHERE campaign_id = $1 ORDER BY row_number", [next]);
    expect(rows).toEqual([
      { email: "Some@Dest.test", state: "invalid", invalid_reason: "Endereço descadastrado (opt-out)." },
      { email: "fica@dest.test", state: "pending", invalid_reason: "" },
    ]);
  });

  it("a bounce of a row whose answer was lost (unconfirmed) counts it sent and not delivered", async () => {
    const id = await createWithFile(app, t.supervisor.token, w, "telefone;cpf;email;nome\n1;;perdido@dest.test;A\n");
    await waitStatus(app, id, ["ACTIVE"]);
    expect((await app.api("POST", `/api/email/campaigns/${id}/trigger/`, { token: t.supervisor.token })).statusCode).toBe(200);
    await waitStatus(app, id, ["FINISHED"]);
    // as the reconciliation leaves a row whose process died after the send
    await app.sql.exec("UPDATE email_campaign_recipients SET state = 'unconfirmed' WHERE campaign_id = $1", [id]);
    await app.sql.exec("UPDATE email_campaigns SET count_emails_sent = 0, count_emails_delivered = 0 WHERE id = $1", [id]);
    const verp = returnPath("perdido@dest.test");
    await deliver([verp], simpleDsn({ to: verp, recipient: "perdido@dest.test", status: "5.2.1" }));
    expect(await rowOf(id, "perdido@dest.test")).toMatchObject({ state: "not_delivered" });
    expect(await counters(id)).toEqual({ count_emails_sent: 1, count_emails_delivered: 0, count_emails_not_delivered: 1 });
  });
});
