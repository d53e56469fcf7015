import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";

let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let ticketId: number;
let contactId: number;

beforeAll(async () => {
  app = await createTestApp();
  t = await buildTenant(app);
  other = await buildTenant(app);
  const q = await buildQueue(app.sql, t.companyId);
  await app.sql.exec("INSERT INTO user_queues (company_id, user_id, queue_id) VALUES ($1, $2, $3)", [t.companyId, t.user.id, q]);
  contactId = (await app.sql.one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'C', '5511933334444') RETURNING id", [t.companyId])).id;
  ticketId = (
    await app.sql.one<{ id: number }>("INSERT INTO tickets (company_id, contact_id, status, queue_id) VALUES ($1, $2, 'pending', $3) RETURNING id", [
      t.companyId,
      contactId,
      q,
    ])
  ).id;
});
afterAll(async () => {
  await app.close();
});

const api = (method: string, url: string, token: string | undefined, body?: unknown) => app.api(method, url, { token, body });

describe("ticket notes", () => {
  it("requires a session", async () => {
    expect((await api("POST", "/api/ticket-notes", undefined, {})).statusCode).toBe(401);
    expect((await api("GET", "/api/ticket-notes/list?ticketId=1", undefined)).statusCode).toBe(401);
    expect((await api("DELETE", "/api/ticket-notes/1", undefined)).statusCode).toBe(401);
  });

  it("adds (at least 2 characters), lists by ticket or contact, deletes (author or admin)", async () => {
    expect((await api("POST", "/api/ticket-notes", t.user.token, { note: "a", ticketId, contactId })).json().fields).toEqual({ note: "Too Short!" });
    const note = (await api("POST", "/api/ticket-notes", t.user.token, { note: "Cliente prefere e-mail", ticketId, contactId })).json();
    expect(note).toMatchObject({ note: "Cliente prefere e-mail", user: { id: t.user.id, name: "Agent" }, ticketId, contactId });
    expect((await api("GET", `/api/ticket-notes/list?ticketId=${ticketId}&contactId=${contactId}`, t.user.token)).json()).toHaveLength(1);
    expect((await api("GET", `/api/ticket-notes/list?contactId=${contactId}`, t.supervisor.token)).json()).toHaveLength(1);
    // another company
    expect((await api("POST", "/api/ticket-notes", other.admin.token, { note: "intrusa", ticketId, contactId })).statusCode).toBe(404);
    expect((await api("GET", `/api/ticket-notes/list?ticketId=${ticketId}`, other.admin.token)).statusCode).toBe(404);
    expect((await api("GET", `/api/ticket-notes/list?contactId=${contactId}`, other.admin.token)).statusCode).toBe(404);
    expect((await api("DELETE", `/api/ticket-notes/${note.id}`, other.admin.token)).statusCode).toBe(404);
    // a user who cannot see the ticket
    expect((await api("DELETE", `/api/ticket-notes/${note.id}`, t.supervisor.token)).statusCode).toBe(403);
    const del = await api("DELETE", `/api/ticket-notes/${note.id}`, t.user.token);
    expect(del.json().message).toBe("Observação excluída com sucesso!");
    expect((await api("GET", `/api/ticket-notes/list?ticketId=${ticketId}`, t.user.token)).json()).toEqual([]);
  });

  it("lists a contact's notes only from the tickets the user may open", async () => {
    const hiddenQueue = await buildQueue(app.sql, t.companyId);
    const closed = await app.sql.one<{ id: number }>(
      "INSERT INTO tickets (company_id, contact_id, status, queue_id) VALUES ($1, $2, 'closed', $3) RETURNING id",
      [t.companyId, contactId, hiddenQueue],
    );
    await app.sql.exec("INSERT INTO ticket_notes (company_id, ticket_id, contact_id, user_id, note) VALUES ($1, $2, $3, $4, 'de outra fila')", [
      t.companyId,
      closed.id,
      contactId,
      t.admin.id,
    ]);
    expect((await api("POST", "/api/ticket-notes", t.user.token, { note: "da minha fila", ticketId, contactId })).statusCode).toBe(200);
    const seen = (list: { note: string }[]) => list.map((n) => n.note).sort();
    expect(seen((await api("GET", `/api/ticket-notes/list?contactId=${contactId}`, t.user.token)).json())).toEqual(["da minha fila"]);
    expect(seen((await api("GET", `/api/ticket-notes/list?contactId=${contactId}`, t.supervisor.token)).json())).toEqual(["da minha fila", "de outra fila"]);
    expect(seen((await api("GET", `/api/ticket-notes/list?contactId=${contactId}`, t.admin.token)).json())).toEqual(["da minha fila", "de outra fila"]);
    expect((await api("GET", `/api/ticket-notes/list?ticketId=${closed.id}`, t.user.token)).statusCode).toBe(403);
  });
});
