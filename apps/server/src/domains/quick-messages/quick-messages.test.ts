import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";

let app: TestApp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-qm-"));
  app = await createTestApp({ dataDir });
  t = await buildTenant(app);
  other = await buildTenant(app);
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

const api = (method: string, url: string, token: string | undefined, body?: unknown) => app.api(method, url, { token, body });

async function upload(id: number, token: string) {
  const form = new FormData();
  form.append("typeArch", "quickMessage");
  form.append("file", new Blob([Buffer.from("hello file")], { type: "text/plain" }), "leia.txt");
  const req = new Request("http://x", { method: "POST", body: form });
  return app.app.inject({
    method: "POST",
    url: `/api/quick-messages/${id}/media-upload`,
    headers: { authorization: `Bearer ${token}`, "content-type": req.headers.get("content-type")! },
    payload: Buffer.from(await req.arrayBuffer()),
  });
}

describe("quick messages", () => {
  it("requires a session", async () => {
    for (const [m, u] of [
      ["GET", "/api/quick-messages"],
      ["GET", "/api/quick-messages/list"],
      ["GET", "/api/quick-messages/1"],
      ["POST", "/api/quick-messages"],
      ["PUT", "/api/quick-messages/1"],
      ["DELETE", "/api/quick-messages/1"],
      ["DELETE", "/api/quick-messages/1/media-upload"],
    ] as const) {
      expect((await api(m, u, undefined, m === "GET" || m === "DELETE" ? undefined : {})).statusCode, `${m} ${u}`).toBe(401);
    }
  });

  it("company-wide and private messages; only the author or an admin edits", async () => {
    expect((await api("POST", "/api/quick-messages", t.user.token, { message: "x" })).json().fields).toEqual({ shortcode: "Obrigatorio" });
    const geral = (await api("POST", "/api/quick-messages", t.user.token, { shortcode: "oi", message: "Olá {{firstName}}!" })).json();
    const privada = (await api("POST", "/api/quick-messages", t.user.token, { shortcode: "minha", message: "só eu", geral: false })).json();
    expect(geral).toMatchObject({ shortcode: "oi", geral: true, userId: t.user.id, isMedia: false, mediaPath: null });
    const colleague = await buildUser(app.sql, t.companyId);
    const ctoken = await app.login(colleague.email);
    const seen = (await api("GET", "/api/quick-messages/list", ctoken)).json().map((q: { shortcode: string }) => q.shortcode);
    expect(seen).toEqual(["oi"]);
    expect((await api("GET", "/api/quick-messages/list", t.user.token)).json().map((q: { shortcode: string }) => q.shortcode)).toEqual(["minha", "oi"]);
    expect((await api("GET", `/api/quick-messages/${privada.id}`, ctoken)).statusCode).toBe(404);
    expect((await api("PUT", `/api/quick-messages/${geral.id}`, ctoken, { message: "mudei" })).statusCode).toBe(403);
    expect((await api("PUT", `/api/quick-messages/${geral.id}`, t.admin.token, { message: "admin mudou" })).json()).toMatchObject({ shortcode: "oi", message: "admin mudou", geral: true });
    const page = (await api("GET", "/api/quick-messages?searchParam=adm", t.user.token)).json();
    expect(page).toMatchObject({ hasMore: false, records: [{ id: geral.id }] });
    expect((await api("GET", `/api/quick-messages/${geral.id}`, other.admin.token)).statusCode).toBe(404);
    expect((await api("DELETE", `/api/quick-messages/${geral.id}`, other.admin.token)).statusCode).toBe(404);
    expect((await api("GET", "/api/quick-messages/list", other.admin.token)).json()).toEqual([]);
    expect((await api("DELETE", `/api/quick-messages/${privada.id}`, t.user.token)).statusCode).toBe(200);
  });

  it("uploads media served only to the company; removes it", async () => {
    const qm = (await api("POST", "/api/quick-messages", t.user.token, { shortcode: "doc", message: "segue" })).json();
    expect((await upload(qm.id, other.admin.token)).statusCode).toBe(404);
    const res = await upload(qm.id, t.user.token);
    expect(res.json()).toMatchObject({ isMedia: true, mediaPath: `/quick-messages/${qm.id}/media`, mediaName: "leia.txt" });
    const file = await api("GET", `/api/quick-messages/${qm.id}/media`, t.supervisor.token);
    expect(file.body).toBe("hello file");
    expect(file.headers["content-type"]).toMatch(/^text\/plain/);
    expect((await api("GET", `/api/quick-messages/${qm.id}/media`, undefined)).statusCode).toBe(401);
    expect((await api("GET", `/api/quick-messages/${qm.id}/media`, other.admin.token)).statusCode).toBe(404);
    expect((await api("DELETE", `/api/quick-messages/${qm.id}/media-upload`, t.user.token)).json()).toMatchObject({ isMedia: false, mediaPath: null });
  });
});
