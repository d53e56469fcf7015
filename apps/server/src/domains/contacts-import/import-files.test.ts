import { mkdtempSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, multipartBody, type TestApp } from "../../../test/helper.js";
import { importDir } from "./upload.js";

/**
 * The upload streamed to disk and imported from there (upload.ts, importer.ts): what stays on disk
 * and for how long, a queued import's file read by its job in the file's encoding, and an
 * installation's own size limit (CONTACTS_IMPORT_MAX_MB, here 7 MiB) letting a file past the spec's
 * 5 MB through while refusing one past its own figure.
 */
let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;
const dataDir = mkdtempSync(path.join(tmpdir(), "atende-import-files-"));

beforeAll(async () => {
  app = await createTestApp({ dataDir, contactsImportMaxBytes: 7 * 1024 * 1024 });
  t = await buildTenant(app);
});
afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

function importFile(data: Buffer | string, fileName = "contatos.csv") {
  const form = multipartBody([{ name: "file", file: { name: fileName, data } }]);
  return app.app.inject({
    method: "POST",
    url: "/api/contacts/import",
    payload: form.payload,
    headers: { ...form.headers, authorization: `Bearer ${t.admin.token}` },
  });
}

/** The files left in the company's import folder. */
const leftOnDisk = () => readdir(importDir(dataDir, t.companyId)).catch((err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? [] : Promise.reject(err)));

async function finished(jobId: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 300; i++) {
    const s = (await app.api("GET", `/api/contacts/import/${jobId}`, { token: t.admin.token })).json();
    if (s.status === "done" || s.status === "failed") return s;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`import ${jobId} did not finish`);
}

describe("contacts import: the uploaded file on disk", () => {
  it("a small file is imported during the request and a refused one answered; neither leaves a file", async () => {
    const ok = await importFile("nome;telefone;cpf;email\nAna Disco;5511966660001;;ana@x.test\n");
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ status: "done", imported: 1 });
    const refused = await importFile("nome;telefone\nAna;5511966660002\n");
    expect(refused.statusCode).toBe(400);
    expect(await leftOnDisk()).toEqual([]);
  });

  it("a large Windows-1252 file waits as its file (not its text) and the job imports it in that encoding, then removes it", async () => {
    const lines = ["nome;telefone;cpf;email"];
    for (let i = 0; i < 3_000; i++) lines.push(`João Conceição ${i};55119${String(7_000_000 + i).padStart(8, "0")};;joao${i}@exemplo.com.br`);
    const latin1 = Buffer.from(lines.join("\r\n"), "latin1");
    const res = await importFile(latin1, "clientes.csv");
    expect(res.statusCode, res.body).toBe(202);
    const jobId = res.json().jobId as string;
    const row = await app.sql.one<{ content: string | null; file_encoding: string | null }>("SELECT content, file_encoding FROM contact_imports WHERE id = $1", [jobId]);
    expect(row).toEqual({ content: null, file_encoding: "windows-1252" });
    expect(await finished(jobId)).toMatchObject({ status: "done", total: 3_000, imported: 3_000, rejected: 0 });
    const stored = await app.sql.one<{ name: string; email: string }>("SELECT name, email FROM contacts WHERE company_id = $1 AND number = '5511907002999'", [t.companyId]);
    expect(stored).toEqual({ name: "João Conceição 2999", email: "joao2999@exemplo.com.br" });
    expect(await leftOnDisk()).toEqual([]);
  });

  it("takes a file past the spec's 5 MB when the installation allows 7 MiB, and refuses one past 7 MiB with that figure", async () => {
    // 3,500 rows with a long column the import does not read: 6.1 MB
    const note = "x".repeat(1_800);
    const lines = ["nome;telefone;cpf;email;observacao"];
    for (let i = 0; i < 3_500; i++) lines.push(`Cliente ${i};55119${String(8_000_000 + i).padStart(8, "0")};;cliente${i}@exemplo.com.br;${note}`);
    const big = Buffer.from(lines.join("\n"));
    expect(big.length).toBeGreaterThan(6_000_000);
    const res = await importFile(big);
    expect(res.statusCode, res.body).toBe(202);
    expect(await finished(res.json().jobId)).toMatchObject({ status: "done", total: 3_500, imported: 3_500 });

    const over = Buffer.concat([Buffer.from("nome;telefone;cpf;email\n"), Buffer.alloc(7 * 1024 * 1024, "a")]);
    const refused = await importFile(over);
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toMatchObject({ error: "ERR_PAYLOAD_TOO_LARGE", message: "O arquivo nao pode exceder 7MB." });
    expect(await leftOnDisk()).toEqual([]);
  });
});
