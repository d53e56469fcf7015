import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";

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

describe("contacts", () => {
  it("requires a session", async () => {
    for (const [m, u] of [
      ["GET", "/api/contacts"],
      ["GET", "/api/contacts/list"],
      ["GET", "/api/contacts/1"],
      ["POST", "/api/contacts"],
      ["PUT", "/api/contacts/1"],
      ["DELETE", "/api/contacts/1"],
    ] as const) {
      expect((await api(m, u, undefined, m === "GET" || m === "DELETE" ? undefined : {})).statusCode, `${m} ${u}`).toBe(401);
    }
  });

  it("creates with the number stripped of non-digits; validates; refuses duplicates", async () => {
    const res = await api("POST", "/api/contacts", t.user.token, {
      name: "Joana Prado",
      number: "+55 (11) 98765-4321",
      email: "joana@example.com",
      document: "12345678901",
      extraInfo: [{ name: "Empresa", value: "ACME" }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: "Joana Prado", number: "5511987654321", formattedDocument: "123.456.789-01", extraInfo: [{ name: "Empresa", value: "ACME" }] });
    const dup = await api("POST", "/api/contacts", t.user.token, { name: "Outra", number: "5511987654321" });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe("ERR_DUPLICATED_CONTACT");
    // the same number in another company is fine
    expect((await api("POST", "/api/contacts", other.user.token, { name: "Joana", number: "5511987654321" })).statusCode).toBe(200);
    expect((await api("POST", "/api/contacts", t.user.token, { name: "J", number: "1234" })).json().fields).toEqual({ name: "Too Short!", number: "Too Short!" });
    expect((await api("POST", "/api/contacts", t.user.token, { name: "Jo Silva", number: "11999998888", email: "x@" })).json().fields).toEqual({
      email: "Invalid email",
    });
  });

  it("pages, searches, lists, updates (partial) and deletes (admins only); another company sees nothing", async () => {
    for (let i = 0; i < 22; i++) await api("POST", "/api/contacts", t.admin.token, { name: `Pessoa ${String(i).padStart(2, "0")}`, number: `55119000000${String(i).padStart(2, "0")}` });
    const p1 = (await api("GET", "/api/contacts?pageNumber=1", t.user.token)).json();
    expect(p1.contacts).toHaveLength(20);
    expect(p1.hasMore).toBe(true);
    const found = (await api("GET", "/api/contacts?searchParam=pessoa 07", t.user.token)).json();
    expect(found.contacts.map((c: { name: string }) => c.name)).toEqual(["Pessoa 07"]);
    const byNumber = (await api("GET", "/api/contacts?searchParam=5511900000015", t.user.token)).json();
    expect(byNumber.contacts.map((c: { name: string }) => c.name)).toEqual(["Pessoa 15"]);
    const list = (await api("GET", "/api/contacts/list", t.user.token)).json();
    expect(list.length).toBeGreaterThanOrEqual(22);
    const id = found.contacts[0].id;
    const upd = await api("PUT", `/api/contacts/${id}`, t.user.token, { email: "p7@example.com" });
    expect(upd.json()).toMatchObject({ name: "Pessoa 07", email: "p7@example.com", number: "5511900000007" });
    expect((await api("PUT", `/api/contacts/${id}`, t.user.token, { number: "5511900000008" })).json().error).toBe("ERR_DUPLICATED_CONTACT");
    expect((await api("GET", `/api/contacts/${id}`, other.admin.token)).json().error).toBe("ERR_NO_CONTACT_FOUND");
    expect((await api("PUT", `/api/contacts/${id}`, other.admin.token, { name: "Hack" })).statusCode).toBe(404);
    expect((await api("DELETE", `/api/contacts/${id}`, other.admin.token)).statusCode).toBe(404);
    expect((await api("GET", "/api/contacts?searchParam=pessoa", other.admin.token)).json().contacts).toEqual([]);
    expect((await api("DELETE", `/api/contacts/${id}`, t.user.token)).statusCode).toBe(403);
    expect((await api("DELETE", `/api/contacts/${id}`, t.supervisor.token)).statusCode).toBe(403);
    expect((await api("DELETE", `/api/contacts/${id}`, t.admin.token)).statusCode).toBe(200);
    expect((await api("GET", `/api/contacts/${id}`, t.admin.token)).statusCode).toBe(404);
  });
});
