import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { FakeSmtp } from "../../../test/fake-smtp/server.js";
import { emailSendStarts } from "../email-dispatch/engine.js";
import { createWithFile, seedEmailWorld, waitStatus, type EmailWorld } from "./test-fixtures.js";
import { waitFor } from "../../../test/wait.js";

/** Pause, resume and cancel of e-mail campaigns against a real SMTP server on loopback (test/fake-smtp). */

let app: TestApp;
let smtp: FakeSmtp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let w: EmailWorld;

beforeAll(async () => {
  smtp = await FakeSmtp.start();
  process.env.CAMPAIGN_SMTP_URL = smtp.url;
  // 20 a second: a 40-row campaign takes two seconds, long enough to pause it in the middle
  process.env.EMAIL_RATE_PER_SECOND = "20";
  process.env.EMAIL_POLL_MS = "100";
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-email-actions-"));
  app = await createTestApp({ dataDir, publicUrl: "https://atende.test" });
  t = await buildTenant(app);
  other = await buildTenant(app);
  w = await seedEmailWorld(app, t.companyId);
});
afterAll(async () => {
  emailSendStarts.observe = undefined;
  await app.close();
  await smtp.close();
  await rm(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const act = (id: number, action: "pause" | "resume" | "cancel" | "trigger", token = t.supervisor.token) =>
  app.api(action === "pause" || action === "resume" ? "PATCH" : "POST", `/api/email/campaigns/${id}/${action}/`, { token });
const csvOf = (domain: string, n: number) =>
  "telefone;cpf;email;nome\n" + Array.from({ length: n }, (_, i) => `${i + 1};;r${i + 1}@${domain};N${i + 1}`).join("\n") + "\n";
const mailsTo = (domain: string) => smtp.received.filter((m) => m.to.some((a) => a.endsWith(`@${domain}`)));
const states = async (id: number) =>
  Object.fromEntries(
    (
      await app.sql.many<{ state: string; n: number }>("SELECT state, count(*)::int AS n FROM email_campaign_recipients WHERE campaign_id = $1 GROUP BY state", [id])
    ).map((r) => [r.state, r.n]),
  );
const until = (what: () => boolean | Promise<boolean>, ms = 15_000) => waitFor(what, ms, "condition", 20);

async function activeCampaign(domain: string, n: number): Promise<number> {
  const id = await createWithFile(app, t.supervisor.token, w, csvOf(domain, n));
  await waitStatus(app, id, ["ACTIVE"]);
  return id;
}

describe("PATCH pause/resume, POST cancel: access", () => {
  it("needs a session, a supervisor and the company's campaign", async () => {
    const id = await activeCampaign("acesso.test", 1);
    for (const action of ["pause", "resume", "cancel"] as const) {
      const method = action === "cancel" ? "POST" : "PATCH";
      expect((await app.api(method, `/api/email/campaigns/${id}/${action}/`, {})).statusCode).toBe(401);
      expect((await act(id, action, t.user.token)).statusCode).toBe(403);
      const theirs = await act(id, action, other.admin.token);
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json()).toMatchObject({ error: "ERR_CAMPAIGN_NOT_FOUND" });
    }
    expect((await app.sql.one<{ status: string }>("SELECT status FROM email_campaigns WHERE id = $1", [id])).status).toBe("ACTIVE");
  });
});

describe("status rules", () => {
  it("refuses pause and resume of an ACTIVE campaign with their codes; cancel of ACTIVE works, then nothing else does", async () => {
    const id = await activeCampaign("regras.test", 2);
    const pause = await act(id, "pause");
    expect(pause.statusCode).toBe(409);
    expect(pause.json()).toMatchObject({ error: "ERR_EMAIL_CAMPAIGN_NOT_PAUSABLE", message: "A campanha não pode ser pausada no status Ativa." });
    const resume = await act(id, "resume");
    expect(resume.statusCode).toBe(409);
    expect(resume.json()).toMatchObject({ error: "ERR_EMAIL_CAMPAIGN_NOT_RESUMABLE", message: "A campanha não pode ser retomada no status Ativa." });

    const cancel = await act(id, "cancel");
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json()).toMatchObject({ id, status: "CANCELLED", total: 2, invalid: 2 });
    expect(await states(id)).toEqual({ skipped: 2 });
    // cancelling again answers as is; the rest is refused
    expect((await act(id, "cancel")).json()).toMatchObject({ status: "CANCELLED", invalid: 2 });
    expect((await act(id, "trigger")).json()).toMatchObject({ error: "ERR_EMAIL_CAMPAIGN_NOT_TRIGGERABLE" });
    expect((await act(id, "pause")).json()).toMatchObject({ error: "ERR_EMAIL_CAMPAIGN_NOT_PAUSABLE", message: "A campanha não pode ser pausada no status Cancelada." });
    expect((await act(id, "resume")).json()).toMatchObject({ error: "ERR_EMAIL_CAMPAIGN_NOT_RESUMABLE" });
    await sleep(300);
    expect(mailsTo("regras.test")).toHaveLength(0);
  });

  it("a FINISHED campaign cannot be cancelled, paused or resumed", async () => {
    const id = await activeCampaign("fim.test", 1);
    expect((await act(id, "trigger")).statusCode).toBe(200);
    await waitStatus(app, id, ["FINISHED"]);
    const cancel = await act(id, "cancel");
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json()).toMatchObject({ error: "ERR_EMAIL_CAMPAIGN_NOT_CANCELLABLE", message: "A campanha não pode ser cancelada no status Finalizada." });
    expect((await act(id, "pause")).statusCode).toBe(409);
    expect((await act(id, "resume")).statusCode).toBe(409);
  });
});

describe("the dispatcher honours them", () => {
  it("a pause stops between recipients; resume continues where it stopped; every address e-mailed exactly once", async () => {
    const id = await activeCampaign("pausa.test", 40);
    expect((await act(id, "trigger")).statusCode).toBe(200);
    await until(() => mailsTo("pausa.test").length >= 5);
    const starts: number[] = [];
    emailSendStarts.observe = (at) => starts.push(at);
    const paused = await act(id, "pause");
    const answeredAt = Date.now();
    expect(paused.statusCode).toBe(200);
    expect(paused.json()).toMatchObject({ status: "PAUSED" });
    // a message already handed to the SMTP server when the pause came may still arrive; then nothing
    await sleep(300);
    const atPause = mailsTo("pausa.test").length;
    await sleep(800);
    expect(mailsTo("pausa.test")).toHaveLength(atPause);
    // between recipients, not between batches (a batch is 5 rows here, and the next one is claimed ahead):
    // by the pacing clock, at most the one slot already waiting ends after the answer, and it is not sent
    emailSendStarts.observe = undefined;
    expect(starts.filter((at) => at > answeredAt).length).toBeLessThanOrEqual(1);
    expect(atPause).toBeLessThan(40);
    // nothing left claimed: what was not sent is pending again
    await until(async () => !(await states(id)).sending);
    expect(await states(id)).toEqual({ delivered: atPause, pending: 40 - atPause });
    // pausing again answers as is
    expect((await act(id, "pause")).json()).toMatchObject({ status: "PAUSED" });

    const resumed = await act(id, "resume");
    expect(resumed.json()).toMatchObject({ status: "RUNNING" });
    await waitStatus(app, id, ["FINISHED"]);
    const mails = mailsTo("pausa.test");
    expect(mails).toHaveLength(40);
    expect(new Set(mails.map((m) => m.to[0])).size).toBe(40);
    expect(new Set(mails.map((m) => m.headers.get("message-id"))).size).toBe(40);
    expect(await states(id)).toEqual({ delivered: 40 });
    expect(await app.sql.one("SELECT count_emails_sent, count_emails_delivered, count_invalid FROM email_campaigns WHERE id = $1", [id])).toEqual({
      count_emails_sent: 40,
      count_emails_delivered: 40,
      count_invalid: 0,
    });
  });

  it("pause, resume and pause again in quick turns never sends a row twice", async () => {
    const id = await activeCampaign("vaivem.test", 30);
    expect((await act(id, "trigger")).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) {
      await sleep(150);
      expect((await act(id, "pause")).statusCode).toBe(200);
      await sleep(100);
      expect((await act(id, "resume")).statusCode).toBe(200);
    }
    await waitStatus(app, id, ["FINISHED"]);
    const mails = mailsTo("vaivem.test");
    expect(mails).toHaveLength(30);
    expect(new Set(mails.map((m) => m.to[0])).size).toBe(30);
  });

  it("a cancel mid-run stops sending; the rows not sent are skipped and counted invalid, never sent", async () => {
    const id = await activeCampaign("cancela.test", 40);
    expect((await act(id, "trigger")).statusCode).toBe(200);
    await until(() => mailsTo("cancela.test").length >= 5);
    const cancelled = await act(id, "cancel");
    expect(cancelled.json()).toMatchObject({ status: "CANCELLED" });
    await sleep(300);
    const sent = mailsTo("cancela.test").length;
    await sleep(700);
    expect(mailsTo("cancela.test")).toHaveLength(sent);
    await until(async () => !(await states(id)).sending);
    expect(await states(id)).toEqual({ delivered: sent, skipped: 40 - sent });
    const row = await app.sql.one<{ status: string; count_invalid: number; count_emails_sent: number }>(
      "SELECT status, count_invalid, count_emails_sent FROM email_campaigns WHERE id = $1",
      [id],
    );
    expect(row).toEqual({ status: "CANCELLED", count_invalid: 40 - sent, count_emails_sent: sent });
    const reasons = await app.sql.many<{ invalid_reason: string }>("SELECT DISTINCT invalid_reason FROM email_campaign_recipients WHERE campaign_id = $1 AND state = 'skipped'", [id]);
    expect(reasons).toEqual([{ invalid_reason: "Campanha cancelada antes do envio." }]);
  });
});

describe("GET /api/email/campaigns/{id}/invalid-rows/", () => {
  it("lists the rows not sent (invalid, then skipped by a cancel) with their reasons; the company's supervisors only", async () => {
    const id = await createWithFile(app, t.supervisor.token, w, "telefone;cpf;email;nome\n1;;ok@linhas.test;A\n2;;ruim;B\n3;;OK@linhas.test;C\n");
    await waitStatus(app, id, ["ACTIVE"]);
    const url = `/api/email/campaigns/${id}/invalid-rows/`;
    expect((await app.api("GET", url, { token: t.supervisor.token })).json()).toEqual({
      count: 2,
      results: [
        { id: expect.any(Number), row_number: 2, phone: "2", email: "ruim", reason: "Endereço de e-mail inválido." },
        { id: expect.any(Number), row_number: 3, phone: "3", email: "OK@linhas.test", reason: "E-mail duplicado (mesmo endereço na linha 1)." },
      ],
    });
    expect((await act(id, "cancel")).statusCode).toBe(200);
    const after = (await app.api("GET", `${url}?page_size=1`, { token: t.supervisor.token })).json() as { count: number; results: { row_number: number; reason: string }[] };
    expect(after.count).toBe(3);
    expect(after.results).toEqual([expect.objectContaining({ row_number: 1, reason: "Campanha cancelada antes do envio." })]);
    expect((await app.api("GET", url, { token: t.user.token })).statusCode).toBe(403);
    expect((await app.api("GET", url, { token: other.admin.token })).json()).toMatchObject({ error: "ERR_CAMPAIGN_NOT_FOUND" });
  });
});
