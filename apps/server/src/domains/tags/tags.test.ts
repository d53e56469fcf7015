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

describe("tags", () => {
  it("requires a session", async () => {
    for (const [m, u] of [
      ["GET", "/api/tags"],
      ["GET", "/api/tags/list"],
      ["GET", "/api/tags/kanban"],
      ["GET", "/api/tags/1"],
      ["POST", "/api/tags"],
      ["POST", "/api/tags/sync"],
      ["PUT", "/api/tags/1"],
      ["DELETE", "/api/tags/1"],
    ] as const) {
      expect((await api(m, u, undefined, m === "GET" || m === "DELETE" ? undefined : {})).statusCode, `${m} ${u}`).toBe(401);
    }
  });

  it("validates, creates, lists, pages with ticketsCount; edit and delete are admin-only; companies are separate", async () => {
    expect((await api("POST", "/api/tags", t.user.token, { name: "ab" })).json().fields).toEqual({ name: "Mensagem muito curta" });
    expect((await api("POST", "/api/tags", t.user.token, {})).json().fields).toEqual({ name: "Obrigatorio" });
    const created = await api("POST", "/api/tags", t.user.token, { name: "Urgente", color: "#f00", kanban: 1 });
    expect(created.json()).toMatchObject({ name: "Urgente", color: "#f00", kanban: 1, userId: t.user.id, ticketsCount: 0 });
    const tag = created.json();
    expect((await api("POST", "/api/tags", t.user.token, { name: "Urgente" })).statusCode).toBe(400);
    await api("POST", "/api/tags", t.user.token, { name: "Normal" });
    expect((await api("GET", "/api/tags/list", t.user.token)).json().map((x: { name: string }) => x.name)).toEqual(["Normal", "Urgente"]);
    expect((await api("GET", "/api/tags/kanban", t.user.token)).json().lista.map((x: { name: string }) => x.name)).toEqual(["Urgente"]);
    const page = (await api("GET", "/api/tags?searchParam=urg", t.user.token)).json();
    expect(page).toMatchObject({ hasMore: false, tags: [{ name: "Urgente", ticketsCount: 0 }] });
    expect((await api("PUT", `/api/tags/${tag.id}`, t.user.token, { name: "Muito urgente" })).statusCode).toBe(403);
    expect((await api("DELETE", `/api/tags/${tag.id}`, t.supervisor.token)).statusCode).toBe(403);
    const upd = await api("PUT", `/api/tags/${tag.id}`, t.admin.token, { name: "Muito urgente" });
    expect(upd.json()).toMatchObject({ name: "Muito urgente", color: "#f00", kanban: 1 });
    expect((await api("GET", `/api/tags/${tag.id}`, other.admin.token)).statusCode).toBe(404);
    expect((await api("PUT", `/api/tags/${tag.id}`, other.admin.token, { name: "Hack" })).statusCode).toBe(404);
    expect((await api("DELETE", `/api/tags/${tag.id}`, other.admin.token)).statusCode).toBe(404);
    expect((await api("GET", "/api/tags/list", other.admin.token)).json()).toEqual([]);
    expect((await api("DELETE", `/api/tags/${tag.id}`, t.admin.token)).statusCode).toBe(200);
    expect((await api("GET", `/api/tags/${tag.id}`, t.admin.token)).statusCode).toBe(404);
  });

  it("sync refuses another company's ticket and tags", async () => {
    const otherTag = (await api("POST", "/api/tags", other.admin.token, { name: "Alheia" })).json();
    const contact = await app.sql.one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'C', '5511911112222') RETURNING id", [t.companyId]);
    const ticket = await app.sql.one<{ id: number }>(
      "INSERT INTO tickets (company_id, contact_id, status, user_id) VALUES ($1, $2, 'open', $3) RETURNING id",
      [t.companyId, contact.id, t.user.id],
    );
    expect((await api("POST", "/api/tags/sync", other.admin.token, { ticketId: ticket.id, tags: [] })).json().error).toBe("ERR_NO_TICKET_FOUND");
    expect((await api("POST", "/api/tags/sync", t.user.token, { ticketId: ticket.id, tags: [{ id: otherTag.id }] })).statusCode).toBe(404);
    const mine = (await api("POST", "/api/tags", t.user.token, { name: "Minha" })).json();
    const ok = await api("POST", "/api/tags/sync", t.user.token, { ticketId: ticket.id, tags: [{ id: mine.id }] });
    expect(ok.json().tags).toEqual([{ id: mine.id, name: "Minha", color: mine.color }]);
    // open ticket of another user: only admins change its tags
    expect((await api("POST", "/api/tags/sync", t.supervisor.token, { ticketId: ticket.id, tags: [] })).json().error).toBe("ERR_NO_PERMISSION");
    expect((await api("POST", "/api/tags/sync", t.admin.token, { ticketId: ticket.id, tags: [] })).json().tags).toEqual([]);
    expect((await api("GET", `/api/tags/${mine.id}`, t.user.token)).json().ticketsCount).toBe(0);
  });
});
