import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { io as connect, type Socket } from "socket.io-client";
import { buildTenant, createTestApp, multipartBody, type TestApp } from "../../../test/helper.js";

let app: TestApp;
let base: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
const sockets: Socket[] = [];

const LAYOUT = "Layout do arquivo invalido. Esperado: nome, numero, telefone, cpf.";
const PARSE = "Erro ao processar o arquivo.";
const NO_FILE = "Por favor, selecione um arquivo.";

beforeAll(async () => {
  app = await createTestApp();
  base = await app.listen();
  t = await buildTenant(app);
  other = await buildTenant(app);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await app.close();
});

function importFile(token: string | undefined, data: Buffer | string, fileName = "contatos.csv") {
  const m = multipartBody([{ name: "file", file: { name: fileName, data } }]);
  return app.app.inject({
    method: "POST",
    url: "/api/contacts/import",
    payload: m.payload,
    headers: { ...m.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
}

const exportCsv = (token: string) => app.api("GET", "/api/contacts/export", { token });

describe("contacts import: access", () => {
  it("refuses every route without a session", async () => {
    expect((await importFile(undefined, "nome;telefone;cpf;email\n")).statusCode).toBe(401);
    expect((await app.api("GET", "/api/contacts/import/00000000-0000-4000-8000-000000000000")).statusCode).toBe(401);
    expect((await app.api("GET", "/api/contacts/export")).statusCode).toBe(401);
  });

  it("lets every profile import and export (no role restriction in the spec)", async () => {
    const res = await importFile(t.user.token, "nome;telefone;cpf;email\nAna Agente;5511911110000;;\n");
    expect(res.statusCode).toBe(200);
    expect(res.json().imported).toBe(1);
    expect((await exportCsv(t.user.token)).statusCode).toBe(200);
    expect((await exportCsv(t.supervisor.token)).statusCode).toBe(200);
  });

  it("keeps companies apart: imports into the actor's company, exports only its contacts, hides other jobs", async () => {
    const number = "5511922223333";
    await app.sql.exec("INSERT INTO contacts (company_id, name, number, email) VALUES ($1, 'Da Outra', $2, 'outra@x.test')", [other.companyId, number]);
    const res = await importFile(t.admin.token, `nome;telefone;cpf;email\nDa Minha;${number};;minha@x.test\n`);
    expect(res.json()).toMatchObject({ imported: 1, updated: 0 });
    const theirs = await app.sql.one<{ name: string; email: string }>("SELECT name, email FROM contacts WHERE company_id = $1 AND number = $2", [other.companyId, number]);
    expect(theirs).toEqual({ name: "Da Outra", email: "outra@x.test" });
    const csv = (await exportCsv(other.admin.token)).body;
    expect(csv).toContain("Da Outra");
    expect(csv).not.toContain("Da Minha");
    const status = await app.api("GET", `/api/contacts/import/${res.json().jobId}`, { token: other.admin.token });
    expect(status.statusCode).toBe(404);
    expect((await app.api("GET", `/api/contacts/import/${res.json().jobId}`, { token: t.user.token })).statusCode).toBe(200);
    expect((await app.api("GET", "/api/contacts/import/not-a-uuid", { token: t.admin.token })).statusCode).toBe(400);
  });
});

describe("contacts import: file rules", () => {
  it("asks for a file when none is sent", async () => {
    const noPart = multipartBody([{ name: "other", value: "x" }]);
    const r1 = await app.app.inject({ method: "POST", url: "/api/contacts/import", payload: noPart.payload, headers: { ...noPart.headers, authorization: `Bearer ${t.admin.token}` } });
    expect(r1.statusCode).toBe(400);
    expect(r1.json().message).toBe(NO_FILE);
    const r2 = await app.api("POST", "/api/contacts/import", { token: t.admin.token, body: {} });
    expect(r2.json().message).toBe(NO_FILE);
    const r3 = await importFile(t.admin.token, Buffer.alloc(0));
    expect(r3.json().message).toBe(NO_FILE);
  });

  it("refuses a file over 5 MB", async () => {
    const header = "nome;telefone;cpf;email\n";
    const big = Buffer.concat([Buffer.from(header), Buffer.alloc(5 * 1024 * 1024 + 1 - header.length, "a")]);
    const res = await importFile(t.admin.token, big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: "ERR_PAYLOAD_TOO_LARGE", message: "O arquivo nao pode exceder 5MB." });
  });

  it("refuses a file without the required header columns", async () => {
    for (const text of [
      "nome;telefone;email\nAna;5511900000001;ana@x.test\n",
      "name;phone;cpf;email\nAna;5511900000001;;\n",
      "nome,telefone,cpf,email\nAna,5511900000001,,\n",
      "Ana;5511900000001;;ana@x.test\n",
    ]) {
      const res = await importFile(t.admin.token, text);
      expect(res.statusCode, text).toBe(400);
      expect(res.json().message).toBe(LAYOUT);
    }
    const count = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM contacts WHERE number = '5511900000001'");
    expect(count.n).toBe(0);
  });

  it("accepts the header in any order, case and accents", async () => {
    const res = await importFile(t.admin.token, "EMAIL;CPF;Telefone;Nome\nzeca@x.test;123;5511900000002;Zeca Prado\n");
    expect(res.statusCode).toBe(200);
    const row = await app.sql.one<{ name: string; email: string; document: string }>(
      "SELECT name, email, document FROM contacts WHERE company_id = $1 AND number = '5511900000002'",
      [t.companyId],
    );
    expect(row).toEqual({ name: "Zeca Prado", email: "zeca@x.test", document: "123" });
  });

  it("refuses a file in an unsupported encoding or a binary file", async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("nome;telefone;cpf;email\r\nAna;5511900000003;;\r\n", "utf16le")]);
    const r1 = await importFile(t.admin.token, utf16);
    expect(r1.statusCode).toBe(400);
    expect(r1.json().message).toBe(PARSE);
    const binary = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00, 0x00, 0x00, 0x21, 0x00]);
    const r2 = await importFile(t.admin.token, binary, "planilha.xlsx");
    expect(r2.json().message).toBe(PARSE);
  });

  it("reads ISO-8859-1 files (accents preserved) as well as UTF-8 with BOM", async () => {
    const latin1 = Buffer.from("nome;telefone;cpf;email\nJoão Conceição;5511900000004;;\n", "latin1");
    expect(latin1.includes(Buffer.from("ã", "utf8"))).toBe(false);
    const r1 = await importFile(t.admin.token, latin1);
    expect(r1.statusCode).toBe(200);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("nome;telefone;cpf;email\nAndré Lúcio;5511900000005;;\n")]);
    expect((await importFile(t.admin.token, bom)).statusCode).toBe(200);
    const names = await app.sql.many<{ name: string }>(
      "SELECT name FROM contacts WHERE company_id = $1 AND number IN ('5511900000004', '5511900000005') ORDER BY number",
      [t.companyId],
    );
    expect(names.map((n) => n.name)).toEqual(["João Conceição", "André Lúcio"]);
  });

  it("refuses a malformed CSV without importing any row", async () => {
    const res = await importFile(t.admin.token, 'nome;telefone;cpf;email\nAna;5511900000006;;\n"Bia;5511900000007;;\n');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(PARSE);
    const n = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM contacts WHERE number = '5511900000006'");
    expect(n.n).toBe(0);
  });
});

describe("contacts import: rows", () => {
  it("imports, updates by number and rejects rows with the line and reason", async () => {
    await app.sql.exec("INSERT INTO contacts (company_id, name, number, email, document) VALUES ($1, 'Antigo Nome', '5511933330001', 'antigo@x.test', '111')", [t.companyId]);
    const text = [
      "nome;telefone;cpf;email",
      "Novo Nome;(55) 11 93333-0001;;", // line 2: updates, keeps e-mail and cpf
      "Bruna Dias;+55 11 93333-0002;123.456.789-00;bruna@x.test", // 3: new
      "Sem Telefone;;;", // 4
      "Curto;1234567;;", // 5
      "Email Ruim;5511933330003;;nao-e-email", // 6
      "Repetida;5511933330002;;", // 7: repeats line 3
      ";5511933330004;;", // 8: no name: the number is the name
      "", // blank line skipped
      "Carlos Lima;5511933330005;;carlos@x.test", // 10
    ].join("\n");
    const res = await importFile(t.admin.token, text);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: "done", total: 8, processed: 8, imported: 3, updated: 1, rejected: 4 });
    expect(body.errors).toEqual([
      { line: 4, reason: "Telefone vazio" },
      { line: 5, reason: expect.stringContaining("Telefone inválido") },
      { line: 6, reason: expect.stringContaining("E-mail inválido") },
      { line: 7, reason: "Telefone repetido no arquivo (linha 3)" },
    ]);
    const updated = await app.sql.one("SELECT name, email, document FROM contacts WHERE company_id = $1 AND number = '5511933330001'", [t.companyId]);
    expect(updated).toEqual({ name: "Novo Nome", email: "antigo@x.test", document: "111" });
    const noName = await app.sql.one<{ name: string }>("SELECT name FROM contacts WHERE company_id = $1 AND number = '5511933330004'", [t.companyId]);
    expect(noName.name).toBe("5511933330004");
    const status = await app.api("GET", `/api/contacts/import/${body.jobId}`, { token: t.admin.token });
    expect(status.json()).toMatchObject({ status: "done", imported: 3, updated: 1, rejected: 4 });
  });

  it("lists at most 100 rejected rows but counts them all", async () => {
    const lines = ["nome;telefone;cpf;email"];
    for (let i = 0; i < 150; i++) lines.push(`Ruim ${i};123;;`);
    const res = await importFile(t.admin.token, lines.join("\n"));
    expect(res.json().rejected).toBe(150);
    expect(res.json().errors).toHaveLength(100);
    expect(res.json().errors[0].line).toBe(2);
  });

  it("imports 50,000 rows in a background job with progress events, then exports them", async () => {
    const tenant = await buildTenant(app);
    const lines = ["nome;telefone;cpf;email"];
    for (let i = 0; i < 50_000; i++) {
      lines.push(`Contato ${i};55119${String(i).padStart(8, "0")};${String(i).padStart(11, "0")};contato${i}@exemplo.com.br`);
    }
    const file = Buffer.from(lines.join("\r\n"));
    expect(file.length).toBeLessThan(5 * 1024 * 1024);
    const socket = connect(base, { auth: { token: tenant.admin.token }, transports: ["websocket"] });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.on("connect", () => resolve());
      socket.on("connect_error", reject);
    });
    const events: { status: string; processed: number; total: number }[] = [];
    const done = new Promise<void>((resolve) =>
      socket.on(`company-${tenant.companyId}-contact`, (e) => {
        if (e.action !== "import-progress") return;
        events.push(e);
        if (e.status === "done" || e.status === "failed") resolve();
      }),
    );
    const started = Date.now();
    const res = await importFile(tenant.admin.token, file, "grande.csv");
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ status: "queued", total: 50_000, fileName: "grande.csv" });
    await done;
    const elapsed = Date.now() - started;
    console.log(`50k-row contact import: ${elapsed} ms (request ${res.json().total} rows, ${events.length} progress events)`);
    const status = (await app.api("GET", `/api/contacts/import/${res.json().jobId}`, { token: tenant.user.token })).json();
    expect(status).toMatchObject({ status: "done", total: 50_000, processed: 50_000, imported: 50_000, updated: 0, rejected: 0, errors: [] });
    expect(events.at(-1)).toMatchObject({ status: "done", processed: 50_000, total: 50_000 });
    expect(events.some((e) => e.status === "running")).toBe(true);
    const count = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM contacts WHERE company_id = $1", [tenant.companyId]);
    expect(count.n).toBe(50_000);
    const content = await app.sql.one<{ content: string | null }>("SELECT content FROM contact_imports WHERE id = $1", [res.json().jobId]);
    expect(content.content).toBeNull();

    const t0 = Date.now();
    const exported = await exportCsv(tenant.admin.token);
    console.log(`50k-row contact export: ${Date.now() - t0} ms, ${exported.rawPayload.length} bytes`);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(exported.headers["content-disposition"]).toMatch(/^attachment; filename="contatos-/);
    const rows = exported.body.replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(rows[0]).toBe("nome;telefone;cpf;email");
    expect(rows).toHaveLength(50_001);
    expect(rows).toContain("Contato 49999;5511900049999;00000049999;contato49999@exemplo.com.br");

    // Importing the same file again updates every row.
    const again = await importFile(tenant.admin.token, file, "grande.csv");
    const jobId = again.json().jobId as string;
    for (let i = 0; i < 150; i++) {
      const s = (await app.api("GET", `/api/contacts/import/${jobId}`, { token: tenant.admin.token })).json();
      if (s.status === "done") {
        expect(s).toMatchObject({ imported: 0, updated: 50_000 });
        return;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error("second import did not finish");
  }, 120_000);
});

describe("contacts export", () => {
  it("writes nome;telefone;cpf;email with a BOM, quotes when needed and guards formulas; the file imports back", async () => {
    const tenant = await buildTenant(app);
    await app.sql.exec(
      `INSERT INTO contacts (company_id, name, number, email, document, is_group) VALUES
        ($1, 'Ana; Maria', '5511944440001', 'ana@x.test', '123', false),
        ($1, '=HYPERLINK("x")', '5511944440002', '', '', false),
        ($1, 'Grupo', '120363000000000', '', '', true)`,
      [tenant.companyId],
    );
    const res = await exportCsv(tenant.user.token);
    expect(res.rawPayload.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);
    const lines = res.body.replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(lines).toEqual(["nome;telefone;cpf;email", '"Ana; Maria";5511944440001;123;ana@x.test', `"'=HYPERLINK(""x"")";5511944440002;;`]);
    await app.sql.exec("DELETE FROM contacts WHERE company_id = $1", [tenant.companyId]);
    const back = await importFile(tenant.admin.token, res.rawPayload);
    expect(back.json()).toMatchObject({ imported: 2, rejected: 0 });
    const names = await app.sql.many<{ name: string }>("SELECT name FROM contacts WHERE company_id = $1 ORDER BY number", [tenant.companyId]);
    expect(names.map((n) => n.name)).toEqual(["Ana; Maria", '=HYPERLINK("x")']);
  });

  it("exports only the header for a company without contacts", async () => {
    const tenant = await buildTenant(app);
    const res = await exportCsv(tenant.admin.token);
    expect(res.body.replace(/^\uFEFF/, "").trim()).toBe("nome;telefone;cpf;email");
  });
});
