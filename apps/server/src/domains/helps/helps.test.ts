import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";

let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;
let rootToken: string;

beforeAll(async () => {
  app = await createTestApp();
  t = await buildTenant(app);
  rootToken = await app.login("root@platform.test");
});
afterAll(async () => {
  await app.close();
});

const create = (body: Record<string, unknown>) => app.api("POST", "/api/helps", { token: rootToken, body });

describe("helps: access", () => {
  it("refuses every route without a session", async () => {
    for (const [method, url] of [
      ["GET", "/api/helps"],
      ["GET", "/api/helps/list"],
      ["GET", "/api/helps/1"],
      ["POST", "/api/helps"],
      ["PUT", "/api/helps/1"],
      ["DELETE", "/api/helps/1"],
    ] as const) {
      const res = await app.api(method, url, { body: method === "POST" || method === "PUT" ? { title: "x" } : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("lets every user read and only super administrators write", async () => {
    const help = (await create({ title: "Primeiros passos", video: "abc123" })).json();
    for (const who of [t.admin, t.supervisor, t.user]) {
      expect((await app.api("GET", "/api/helps", { token: who.token })).statusCode).toBe(200);
      expect((await app.api("GET", "/api/helps/list", { token: who.token })).statusCode).toBe(200);
      expect((await app.api("GET", `/api/helps/${help.id}`, { token: who.token })).statusCode).toBe(200);
      for (const [method, url, body] of [
        ["POST", "/api/helps", { title: "x" }],
        ["PUT", `/api/helps/${help.id}`, { title: "x" }],
        ["DELETE", `/api/helps/${help.id}`, undefined],
      ] as const) {
        const res = await app.api(method, url, { token: who.token, body });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().error).toBe("ERR_NO_PERMISSION");
      }
    }
    expect((await app.api("GET", `/api/helps/${help.id}`, { token: t.user.token })).json().title).toBe("Primeiros passos");
  });
});

describe("helps: management", () => {
  it("creates, updates and deletes a help video", async () => {
    const res = await create({ title: "Conexões", description: "Como conectar", video: "dQw4w9WgXcQ" });
    expect(res.statusCode).toBe(200);
    const help = res.json();
    expect(help).toEqual({ id: expect.any(Number), title: "Conexões", description: "Como conectar", video: "dQw4w9WgXcQ" });
    const put = await app.api("PUT", `/api/helps/${help.id}`, { token: rootToken, body: { title: "Conexões 2", video: "xyz" } });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ id: help.id, title: "Conexões 2", description: "", video: "xyz" });
    expect((await app.api("DELETE", `/api/helps/${help.id}`, { token: rootToken })).statusCode).toBe(200);
    expect((await app.api("GET", `/api/helps/${help.id}`, { token: t.user.token })).statusCode).toBe(404);
    expect((await app.api("DELETE", `/api/helps/${help.id}`, { token: rootToken })).statusCode).toBe(404);
    expect((await app.api("PUT", `/api/helps/${help.id}`, { token: rootToken, body: { title: "x" } })).statusCode).toBe(404);
  });

  it("validates the title and the video code", async () => {
    const noTitle = await create({ title: "" });
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json().fields.title).toBeTruthy();
    expect((await create({})).json().fields).toMatchObject({ title: "Required" });
    const url = await create({ title: "Vídeo", video: "https://evil.example/x?y=<script>" });
    expect(url.statusCode).toBe(400);
    expect(url.json().fields.video).toBeTruthy();
  });

  it("pages by 20 with search; the list route returns everything", async () => {
    for (let i = 0; i < 22; i++) await create({ title: `Paginado ${String(i).padStart(2, "0")}` });
    const p1 = (await app.api("GET", "/api/helps?searchParam=paginado&pageNumber=1", { token: t.user.token })).json();
    expect(p1.records).toHaveLength(20);
    expect(p1.hasMore).toBe(true);
    expect(p1.count).toBe(22);
    expect(p1.records[0].title).toBe("Paginado 00");
    const p2 = (await app.api("GET", "/api/helps?searchParam=paginado&pageNumber=2", { token: t.user.token })).json();
    expect(p2.records.map((h: { title: string }) => h.title)).toEqual(["Paginado 20", "Paginado 21"]);
    expect(p2.hasMore).toBe(false);
    const all = (await app.api("GET", "/api/helps/list", { token: t.user.token })).json();
    expect(all.filter((h: { title: string }) => h.title.startsWith("Paginado"))).toHaveLength(22);
  });
});
