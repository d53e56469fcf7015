import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { insertContact } from "./test-fixtures.js";
import { waitFor } from "../../../test/wait.js";

let app: TestApp;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-schedule-wait-"));
  app = await createTestApp({ dataDir });
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

it("a schedule that falls due while its connection is not connected yet is sent once, when it connects", async () => {
  const t = await buildTenant(app);
  // a connection whose session has not come up yet (as right after a restart): created, not scanned
  const created = await app.api("POST", "/api/whatsapp", { token: t.admin.token, body: { name: "Loja", provider: "sandbox", queueIds: [], greetingMessage: "", complationMessage: "" } });
  expect(created.statusCode).toBe(200);
  const whatsappId = created.json().id as number;
  const contactId = await insertContact(app.sql, t.companyId, { whatsappId });
  const res = await app.api("POST", "/api/schedules", {
    token: t.admin.token,
    body: { body: "Lembrete da consulta", contactId, whatsappId, sendAt: new Date(Date.now() + 300).toISOString() },
  });
  expect(res.statusCode).toBe(200);
  const id = res.json().id as number;
  const firstJob = (await app.sql.one<{ job_id: string }>("SELECT job_id FROM schedules WHERE id = $1", [id])).job_id;
  // the job ran at its time and is waiting (a newer job), not failed
  await waitFor(() => app.sql.maybe("SELECT 1 FROM schedules WHERE id = $1 AND job_id <> $2 AND status = 'AGENDADA'", [id, firstJob]), 20_000);

  expect((await app.api("POST", `/api/sandbox/${whatsappId}/scan`, { token: t.admin.token })).statusCode).toBe(200);
  const sent = await waitFor(() => app.sql.maybe<{ status: string; error: string | null }>("SELECT status, error FROM schedules WHERE id = $1 AND sent_at IS NOT NULL", [id]), 20_000);
  expect(sent).toEqual({ status: "ENVIADA", error: null });
  const stored = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE company_id = $1 AND body = 'Lembrete da consulta'", [t.companyId]);
  expect(stored.n).toBe(1);
  const phone = await app.sql.one<{ n: number }>(
    "SELECT count(*)::int AS n FROM sandbox_messages WHERE company_id = $1 AND direction = 'outbound' AND body = 'Lembrete da consulta'",
    [t.companyId],
  );
  expect(phone.n).toBe(1);
}, 40_000);
