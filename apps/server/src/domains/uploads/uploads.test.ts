import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";

let app: TestApp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-upload-"));
  app = await createTestApp({ dataDir });
  t = await buildTenant(app);
  other = await buildTenant(app);
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

// a real 1×1 PNG (signature, IHDR, IDAT, IEND)
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

async function post(token: string | undefined, file: { data: Buffer; name: string; type: string } | null, extra: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(extra)) form.append(k, v);
  if (file) form.append("file", new Blob([file.data], { type: file.type }), file.name);
  const req = new Request("http://x", { method: "POST", body: form });
  return app.app.inject({
    method: "POST",
    url: "/api/upload",
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), "content-type": req.headers.get("content-type")! },
    payload: Buffer.from(await req.arrayBuffer()),
  });
}
const get = (url: string, token?: string) => app.api("GET", url, { token });

describe("POST /upload (spec 2 §7: multipart file)", () => {
  it("requires a session", async () => {
    expect((await post(undefined, { data: PNG, name: "logo.png", type: "image/png" })).statusCode).toBe(401);
    expect((await get("/api/upload/1")).statusCode).toBe(401);
  });

  it("is for administrators (queues are theirs to change)", async () => {
    const res = await post(t.user.token, { data: PNG, name: "logo.png", type: "image/png" });
    expect(res.statusCode).toBe(403);
  });

  it("keeps a PNG for the uploader's company and serves it to that company only", async () => {
    // a companyId in the form is never read: the file is the uploader's company's
    const res = await post(t.admin.token, { data: PNG, name: "logo.png", type: "image/png" }, { companyId: String(other.companyId) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ id: expect.any(Number), fileName: "logo.png", mimetype: "image/png", size: 70, url: `/api/upload/${body.id}` });
    const stored = await app.sql.one<{ company_id: number; storage_key: string }>("SELECT company_id, storage_key FROM uploads WHERE id = $1", [body.id]);
    expect(stored.company_id).toBe(t.companyId);
    expect(stored.storage_key.startsWith(`${t.companyId}/`)).toBe(true);
    expect(await readdir(path.join(dataDir, "media", String(t.companyId)))).toHaveLength(1);

    const file = await get(body.url, t.user.token);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/png");
    expect(file.rawPayload.equals(PNG)).toBe(true);
    // another company's administrator: not found, as if it did not exist
    expect((await get(body.url, other.admin.token)).statusCode).toBe(404);
    expect((await get("/api/upload/999999999", t.admin.token)).statusCode).toBe(404);
  });

  it("refuses a file over 10 MB with ERR_PAYLOAD_TOO_LARGE", async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]);
    const res = await post(t.admin.token, { data: big, name: "grande.png", type: "image/png" });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: "ERR_PAYLOAD_TOO_LARGE" });
  });

  it("refuses a type its bytes do not show, whatever the name and declared type", async () => {
    const html = await post(t.admin.token, { data: Buffer.from("<html><script>alert(1)</script></html>"), name: "foto.png", type: "image/png" });
    expect(html.statusCode).toBe(415);
    expect(html.json()).toMatchObject({ error: "ERR_UPLOAD_TYPE_UNSUPPORTED" });
    const svg = await post(t.admin.token, { data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), name: "icone.svg", type: "image/svg+xml" });
    expect(svg.statusCode).toBe(415);
    const none = await post(t.admin.token, null, { other: "x" });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { file: "Required" } });
    expect(await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM uploads WHERE company_id = $1", [t.companyId])).toEqual({ n: 1 });
  });

  it("a PDF is kept with the type its bytes show", async () => {
    const res = await post(t.admin.token, { data: Buffer.from("%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF"), name: "horarios.pdf", type: "application/octet-stream" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ mimetype: "application/pdf", fileName: "horarios.pdf" });
  });
});
