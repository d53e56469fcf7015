import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";

let app: TestApp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let root: string;

// the smallest valid PNG and JPEG headers (the server reads the first bytes, not the name alone)
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex");
const JPEG = Buffer.from("ffd8ffe000104a46494600010100000100010000ffd9", "hex");

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-announcements-"));
  app = await createTestApp({ dataDir });
  t = await buildTenant(app);
  other = await buildTenant(app);
  root = await app.login("root@platform.test");
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

const api = (method: string, url: string, token: string | undefined, body?: unknown) => app.api(method, url, { token, body });
const create = async (body: Record<string, unknown>) => {
  const res = await api("POST", "/api/announcements", root, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; updatedAt: string };
};

async function upload(id: number, token: string, data: Buffer, name: string, type: string) {
  const form = new FormData();
  form.append("file", new Blob([data], { type }), name);
  const req = new Request("http://x", { method: "POST", body: form });
  return app.app.inject({
    method: "POST",
    url: `/api/announcements/${id}/media-upload`,
    headers: { authorization: `Bearer ${token}`, "content-type": req.headers.get("content-type")! },
    payload: Buffer.from(await req.arrayBuffer()),
  });
}

describe("announcements: who may do what", () => {
  it("refuses every route without a session", async () => {
    for (const [method, url] of [
      ["GET", "/api/announcements"],
      ["GET", "/api/announcements/1"],
      ["GET", "/api/announcements/1/media"],
      ["POST", "/api/announcements"],
      ["POST", "/api/announcements/seen"],
      ["PUT", "/api/announcements/1"],
      ["DELETE", "/api/announcements/1"],
      ["POST", "/api/announcements/1/media-upload"],
      ["DELETE", "/api/announcements/1/media-upload"],
    ] as const) {
      expect((await api(method, url, undefined, method === "POST" || method === "PUT" ? { title: "x", text: "y" } : undefined)).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("only super administrators write; an admin of a company is refused with ERR_NO_PERMISSION", async () => {
    const a = await create({ title: "Bem-vindos", text: "Olá a todos" });
    for (const who of [t.admin, t.supervisor, t.user]) {
      for (const [method, url, body] of [
        ["POST", "/api/announcements", { title: "x", text: "y" }],
        ["PUT", `/api/announcements/${a.id}`, { title: "x", text: "y" }],
        ["DELETE", `/api/announcements/${a.id}`, undefined],
        ["DELETE", `/api/announcements/${a.id}/media-upload`, undefined],
      ] as const) {
        const res = await api(method, url, who.token, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().error).toBe("ERR_NO_PERMISSION");
      }
      expect((await upload(a.id, who.token, PNG, "a.png", "image/png")).statusCode).toBe(403);
    }
  });

  it("everyone of every company reads the active ones; an inactive one exists only for super administrators", async () => {
    const active = await create({ title: "Ativo para todos", text: "texto" });
    const hidden = await create({ title: "Rascunho", text: "texto", status: false });
    for (const who of [t.user, other.admin]) {
      const page = (await api("GET", "/api/announcements", who.token)).json();
      const titles = page.records.map((r: { title: string }) => r.title);
      expect(titles).toContain("Ativo para todos");
      expect(titles).not.toContain("Rascunho");
      expect((await api("GET", `/api/announcements/${active.id}`, who.token)).statusCode).toBe(200);
      expect((await api("GET", `/api/announcements/${hidden.id}`, who.token)).statusCode).toBe(404);
      // asking for everything changes nothing for them
      const all = (await api("GET", "/api/announcements?active=false", who.token)).json();
      expect(all.records.map((r: { title: string }) => r.title)).not.toContain("Rascunho");
    }
    const superPage = (await api("GET", "/api/announcements", root)).json();
    expect(superPage.records.map((r: { title: string }) => r.title)).toContain("Rascunho");
    const superBar = (await api("GET", "/api/announcements?active=true", root)).json();
    expect(superBar.records.map((r: { title: string }) => r.title)).not.toContain("Rascunho");
  });
});

describe("announcements: content", () => {
  it("creates with the spec's defaults (priority 3, active), validates and edits", async () => {
    const res = await api("POST", "/api/announcements", root, { title: "  Novidade  ", text: "Chegou o kanban" });
    expect(res.json()).toMatchObject({ title: "Novidade", text: "Chegou o kanban", priority: 3, status: true, mediaPath: null });
    const bad = await api("POST", "/api/announcements", root, { title: " ", text: "", priority: 7 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { title: "Obrigatório", text: "Obrigatório", priority: "Prioridade inválida" } });
    // what the spec's front end sends: status as 1/0, priority as text
    const put = await api("PUT", `/api/announcements/${res.json().id}`, root, { title: "Novidade", text: "Chegou o kanban", priority: "1", status: 0 });
    expect(put.json()).toMatchObject({ priority: 1, status: false });
    expect((await api("PUT", "/api/announcements/999999", root, { title: "x", text: "y" })).statusCode).toBe(404);
    expect((await api("DELETE", "/api/announcements/999999", root)).statusCode).toBe(404);
  });

  it("lists the most urgent first, searches title and text, pages by 20", async () => {
    for (let i = 0; i < 22; i++) await create({ title: `Lote ${String(i).padStart(2, "0")}`, text: i === 5 ? "procure-me aqui" : "texto", priority: i === 10 ? 1 : 3 });
    const first = (await api("GET", "/api/announcements?searchParam=Lote", root)).json();
    expect(first.count).toBe(22);
    expect(first.records).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    expect(first.records[0].title).toBe("Lote 10");
    const second = (await api("GET", "/api/announcements?searchParam=Lote&pageNumber=2", root)).json();
    expect(second.records).toHaveLength(2);
    expect(second.hasMore).toBe(false);
    const found = (await api("GET", "/api/announcements?searchParam=PROCURE-ME", t.user.token)).json();
    expect(found.records.map((r: { title: string }) => r.title)).toEqual(["Lote 05"]);
  });

  it("deletes", async () => {
    const a = await create({ title: "Efêmero", text: "x" });
    expect((await api("DELETE", `/api/announcements/${a.id}`, root)).statusCode).toBe(200);
    expect((await api("GET", `/api/announcements/${a.id}`, root)).statusCode).toBe(404);
  });
});

describe("announcements: image", () => {
  it("takes a PNG or a JPEG, refuses anything else whatever its name, and serves it to signed-in users only", async () => {
    const a = await create({ title: "Com imagem", text: "veja" });
    const png = await upload(a.id, root, PNG, "banner.png", "image/png");
    expect(png.statusCode, png.body).toBe(200);
    expect(png.json()).toMatchObject({ mediaPath: `/announcements/${a.id}/media`, mediaName: "banner.png" });

    const img = await api("GET", `/api/announcements/${a.id}/media`, other.user.token);
    expect(img.statusCode).toBe(200);
    expect(img.headers["content-type"]).toBe("image/png");
    expect(img.rawPayload.equals(PNG)).toBe(true);
    expect((await api("GET", `/api/announcements/${a.id}/media`, undefined)).statusCode).toBe(401);

    const jpeg = await upload(a.id, root, JPEG, "foto.jpeg", "image/jpeg");
    expect(jpeg.json().mediaName).toBe("foto.jpeg");
    expect((await api("GET", `/api/announcements/${a.id}/media`, t.user.token)).headers["content-type"]).toBe("image/jpeg");

    for (const [data, name, type] of [
      [Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"), "x.png", "image/png"],
      [Buffer.from("GIF89a....."), "x.gif", "image/gif"],
      [PNG, "x.jpg", "image/jpeg"],
      [JPEG, "x.txt", "text/plain"],
    ] as const) {
      const res = await upload(a.id, root, data, name, type);
      expect(res.statusCode, name).toBe(400);
      expect(res.json()).toMatchObject({ error: "ERR_VALIDATION", message: "A imagem deve ser PNG, JPG ou JPEG." });
    }

    const removed = await api("DELETE", `/api/announcements/${a.id}/media-upload`, root);
    expect(removed.json()).toMatchObject({ mediaPath: null, mediaName: null });
    expect((await api("GET", `/api/announcements/${a.id}/media`, t.user.token)).statusCode).toBe(404);
  });

  it("an inactive announcement's image is not served to other users", async () => {
    const a = await create({ title: "Oculto", text: "x", status: false });
    await upload(a.id, root, PNG, "oculto.png", "image/png");
    expect((await api("GET", `/api/announcements/${a.id}/media`, t.user.token)).statusCode).toBe(404);
    expect((await api("GET", `/api/announcements/${a.id}/media`, root)).statusCode).toBe(200);
  });
});

describe("announcements: the app bar's dot", () => {
  it("counts the active ones created or changed since the user last opened the list, per user", async () => {
    await create({ title: "Primeiro aviso", text: "x" });
    const before = (await api("GET", "/api/announcements?active=true", t.supervisor.token)).json();
    expect(before.unseen).toBeGreaterThan(0);
    expect((await api("POST", "/api/announcements/seen", t.supervisor.token)).statusCode).toBe(200);
    expect((await api("GET", "/api/announcements?active=true", t.supervisor.token)).json().unseen).toBe(0);
    // another user has still not seen them
    expect((await api("GET", "/api/announcements?active=true", t.admin.token)).json().unseen).toBe(before.unseen);
    // a new one, or a change of an old one, shows the dot again; an inactive one does not
    await new Promise((r) => setTimeout(r, 5));
    const changed = await create({ title: "Segundo aviso", text: "x" });
    expect((await api("GET", "/api/announcements?active=true", t.supervisor.token)).json().unseen).toBe(1);
    await api("POST", "/api/announcements/seen", t.supervisor.token);
    await api("PUT", `/api/announcements/${changed.id}`, root, { title: "Segundo aviso", text: "x", status: false });
    expect((await api("GET", "/api/announcements?active=true", t.supervisor.token)).json().unseen).toBe(0);
  });
});
