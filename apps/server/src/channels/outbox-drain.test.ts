import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../test/helper.js";
import { channels } from "./manager.js";
import { connectedSandbox, inbound } from "./testing.js";

let app: TestApp;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-drain-"));
  app = await createTestApp({ dataDir });
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

it("an outbox drain that fails (it runs unawaited) is logged with its connection instead of ending the process", async () => {
  const t = await buildTenant(app);
  const wa = await connectedSandbox(app, t.admin.token);
  const { messageId } = await inbound(app, t.admin.token, wa, { number: "5511987650001" });
  // a message queued by another process, and a database that refuses to claim it
  await app.sql.exec("UPDATE messages SET send_status = 'queued' WHERE id = $1", [messageId]);
  await app.sql.exec(`CREATE FUNCTION refuse_claim() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'claim refused for the test'; END $$`);
  await app.sql.exec("CREATE TRIGGER refuse_claim BEFORE UPDATE ON messages FOR EACH ROW WHEN (NEW.send_status = 'sending') EXECUTE FUNCTION refuse_claim()");
  const logged = vi.spyOn(app.ctx.log, "error");
  try {
    await channels(app.ctx).poll();
    await vi.waitFor(() => expect(logged).toHaveBeenCalledWith(expect.objectContaining({ whatsappId: wa }), "outbox drain failed; the next poll tries again"), {
      timeout: 5000,
    });
    const [context] = logged.mock.calls.find((c) => c[1] === "outbox drain failed; the next poll tries again")!;
    expect((context as { err: Error }).err.message).toContain("claim refused for the test");
  } finally {
    logged.mockRestore();
    await app.sql.exec("DROP TRIGGER refuse_claim ON messages");
    await app.sql.exec("UPDATE messages SET send_status = 'sent' WHERE id = $1", [messageId]);
  }
});
