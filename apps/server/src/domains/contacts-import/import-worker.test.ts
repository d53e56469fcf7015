import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, multipartBody, type TestApp } from "../../../test/helper.js";
import { stopWorkerThreads } from "../../core/worker-thread.js";
import { insertImport } from "./repository.js";
import { runImportJob } from "./service.js";

/**
 * The contacts import's worker thread (import-thread.ts): a large upload counted there (and refused
 * there when malformed), its heap cap, and the server's shutdown stopping an import so that the job's
 * retry starts it again; the real thread against the real database.
 */

let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;

beforeAll(async () => {
  app = await createTestApp();
  t = await buildTenant(app);
});
afterAll(async () => {
  await app.close();
});

const PARSE = "Erro ao processar o arquivo.";
const rows = (n: number, from = 0) =>
  ["nome;telefone;cpf;email", ...Array.from({ length: n }, (_, i) => `Contato ${from + i};55119${String(from + i).padStart(8, "0")};;`)].join("\n");

function upload(data: string) {
  const form = multipartBody([{ name: "file", file: { name: "grande.csv", data } }]);
  return app.app.inject({
    method: "POST",
    url: "/api/contacts/import",
    payload: form.payload,
    headers: { ...form.headers, authorization: `Bearer ${t.admin.token}` },
  });
}

/** An import waiting for its job (the test plays the job's attempts itself). */
async function queuedImport(text: string, total: number): Promise<string> {
  const row = await insertImport(app.sql, t.companyId, { userId: t.admin.id, fileName: "grande.csv", total, status: "queued", content: text });
  return row.id;
}

const stored = (id: string) =>
  app.sql.one<{ status: string; error: string | null; processed: number; imported: number; updated: number; content: string | null }>(
    "SELECT status, error, processed, imported, updated, content FROM contact_imports WHERE id = $1",
    [id],
  );

describe("the contacts import's worker thread", () => {
  it("counts a large upload there and answers 202 with the total; a malformed one is refused with the catalogue's message", async () => {
    const ok = await upload(rows(12_000));
    expect(ok.statusCode, ok.body).toBe(202);
    expect(ok.json()).toMatchObject({ status: "queued", total: 12_000 });

    // a quote never closed, past the inline-count size: the worker's parse refuses it
    const bad = await upload(`${rows(12_000, 100_000)}\n"Contato aberto;5511988887777;;`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: "ERR_VALIDATION", message: PARSE });
  });

  it("out of its heap: the import ends failed with a message (not retried), and the server goes on", async () => {
    const id = await queuedImport(rows(30_000, 200_000), 30_000);
    const heapMb = app.ctx.config.contactsImportHeapMb;
    const warn = app.ctx.log.warn;
    const warnings: string[] = [];
    app.ctx.log.warn = ((obj: unknown, msg?: string) => void warnings.push(String(msg))) as typeof warn;
    app.ctx.config.contactsImportHeapMb = 4;
    try {
      await runImportJob(app.ctx, { companyId: t.companyId, importId: id });
    } finally {
      app.ctx.config.contactsImportHeapMb = heapMb;
      app.ctx.log.warn = warn;
    }
    expect(warnings).toContain("contacts import (import) worker ran out of memory");
    expect(await stored(id)).toMatchObject({ status: "failed", error: PARSE, content: null });
    expect((await app.api("GET", "/api/contacts/import/" + id, { token: t.user.token })).statusCode).toBe(200);
  });

  it("the server closing stops a running import at once: its attempt fails (pg-boss retries it) and the retry imports every row", async () => {
    // enough rows that the stop at the second progress announcement always finds batches still to run
    // (with 5,000 a fast run could store the last batch before the stop reached the thread)
    const id = await queuedImport(rows(20_000, 300_000), 20_000);
    let batches = 0;
    const realtime = app.ctx.realtime;
    // the first progress announcement is where the "shutdown" happens (as the server's close would)
    const emit = realtime.emit.bind(realtime);
    realtime.emit = (...args: Parameters<typeof realtime.emit>) => {
      const event = args[2] as { action?: string; status?: string };
      if (event.action === "import-progress" && event.status === "running" && ++batches === 2) void stopWorkerThreads(app.ctx);
      return emit(...args);
    };
    try {
      await expect(runImportJob(app.ctx, { companyId: t.companyId, importId: id })).rejects.toThrow(/server is closing/);
    } finally {
      realtime.emit = emit;
    }
    expect((await stored(id)).status).toBe("running");
    await runImportJob(app.ctx, { companyId: t.companyId, importId: id });
    // the retry reads the whole file again: rows the stopped attempt had stored count as updated
    const done = await stored(id);
    expect(done).toMatchObject({ status: "done", processed: 20_000, content: null });
    expect(done.imported + done.updated).toBe(20_000);
    const contacts = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM contacts WHERE company_id = $1 AND name ~ '^Contato 3[01][0-9]{4}$'", [t.companyId]);
    expect(contacts.n).toBe(20_000);
  });
});
