import { findBlockedWords } from "@atende/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { assertNoBlockedWords } from "./service.js";

let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;

beforeAll(async () => {
  app = await createTestApp();
  t = await buildTenant(app);
  other = await buildTenant(app);
});
afterAll(async () => {
  await app.close();
});

const api = (method: string, url: string, token: string | undefined, body?: unknown) => app.api(method, url, { token, body });

describe("keywords: the list", () => {
  it("is for supervisors and above of the company", async () => {
    expect((await api("GET", "/api/keyword", undefined)).statusCode).toBe(401);
    expect((await api("GET", "/api/keyword", t.user.token)).json().error).toBe("ERR_NO_PERMISSION");
    expect((await api("POST", "/api/keyword", t.user.token, { word: "golpe" })).statusCode).toBe(403);
    expect((await api("GET", "/api/keyword", t.supervisor.token)).statusCode).toBe(200);
  });

  it("adds several words at once (one per line), skips repeats and listed ones, and needs 2 characters", async () => {
    const res = await api("POST", "/api/keyword", t.supervisor.token, { word: "Golpe\n\n  pix grátis \nGOLPE\n" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().map((k: { word: string }) => k.word)).toEqual(["Golpe", "pix grátis"]);
    const again = await api("POST", "/api/keyword", t.supervisor.token, { word: "golpe\nsorteio" });
    expect(again.json().map((k: { word: string }) => k.word)).toEqual(["sorteio"]);
    const dup = await api("POST", "/api/keyword", t.supervisor.token, { word: "GÓLPE" });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe("ERR_KEYWORD_DUPLICATE");
    const short = await api("POST", "/api/keyword", t.supervisor.token, { word: "ok\na" });
    expect(short.statusCode).toBe(400);
    expect(JSON.stringify(short.json().fields)).toContain("A palavra deve ter pelo menos 2 caracteres.");
    expect((await api("POST", "/api/keyword", t.supervisor.token, { word: " \n " })).statusCode).toBe(400);
    const list = (await api("GET", "/api/keyword", t.admin.token)).json();
    expect(list.map((k: { word: string }) => k.word)).toEqual(["Golpe", "pix grátis", "sorteio"]);
    // another company's list is its own
    expect((await api("GET", "/api/keyword", other.admin.token)).json()).toEqual([]);
  });

  it("edits one word (the spec's body carries the id too) and deletes; another company's word is not found", async () => {
    const [k] = (await api("POST", "/api/keyword", t.admin.token, { word: "promoção" })).json();
    const put = await api("PUT", `/api/keyword/${k.id}`, t.admin.token, { id: k.id, word: "promoçao relâmpago" });
    expect(put.json().word).toBe("promoçao relâmpago");
    expect((await api("PUT", `/api/keyword/${k.id}`, t.admin.token, { id: k.id, word: "SORTEIO" })).statusCode).toBe(409);
    expect((await api("PUT", `/api/keyword/${k.id}`, other.admin.token, { word: "x1" })).statusCode).toBe(404);
    expect((await api("DELETE", `/api/keyword/${k.id}`, other.admin.token)).statusCode).toBe(404);
    expect((await api("DELETE", `/api/keyword/${k.id}`, t.admin.token)).statusCode).toBe(200);
    expect((await api("DELETE", `/api/keyword/${k.id}`, t.admin.token)).statusCode).toBe(404);
  });
});

describe("keywords: blocking", () => {
  it("matches whole words without case or accents", () => {
    const words = ["pix", "golpe", "pix grátis", "Ação"];
    expect(findBlockedWords("Receba seu PIX agora", words)).toEqual(["pix"]);
    expect(findBlockedWords("pixel art e pixar", words)).toEqual([]);
    expect(findBlockedWords("Não caia em GÓLPE!", words)).toEqual(["golpe"]);
    expect(findBlockedWords("ganhe um pix  gratis hoje", words)).toEqual(["pix", "pix grátis"]);
    expect(findBlockedWords("acao entre amigos; reação", words)).toEqual(["Ação"]);
  });

  it("refuses content with listed words only while the company's block list is on, naming them", async () => {
    await api("POST", "/api/keyword", other.admin.token, { word: "golpe\nsorteio" });
    const text = ["Participe do SORTEIO de hoje", "sem golpes aqui"];
    await expect(assertNoBlockedWords(app.sql, other.companyId, text)).resolves.toBeUndefined();
    await api("PUT", "/api/settings/enableBlockList", other.admin.token, { value: "enabled" });
    await expect(assertNoBlockedWords(app.sql, other.companyId, text)).rejects.toMatchObject({
      code: "ERR_BLOCKED_WORDS",
      message: "O conteúdo contém palavras bloqueadas: sorteio.",
    });
    // another company's list does not apply
    await expect(assertNoBlockedWords(app.sql, t.companyId, text)).resolves.toBeUndefined();
  });
});
