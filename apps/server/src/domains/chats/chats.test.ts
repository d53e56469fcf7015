import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { socketsCaughtUp } from "../../../test/socket-fence.js";
import { waitFor } from "../../../test/wait.js";

let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let base: string;

beforeAll(async () => {
  app = await createTestApp();
  base = await app.listen();
  t = await buildTenant(app);
  other = await buildTenant(app);
});
afterAll(async () => {
  await app.close();
});

const api = (method: string, url: string, token: string | undefined, body?: unknown) => app.api(method, url, { token, body });
async function create(token: string, body: unknown) {
  const res = await api("POST", "/api/chats", token, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; uuid: string; users: { userId: number; unreads: number }[] };
}
const unreadsOf = (chat: { users: { userId: number; unreads: number }[] }, userId: number) => chat.users.find((u) => u.userId === userId)?.unreads;

describe("chats: rules", () => {
  it("needs a session and the plan's internal chat", async () => {
    expect((await api("GET", "/api/chats", undefined)).statusCode).toBe(401);
    const noChat = await buildTenant(app, { plan: { flags: { useInternalChat: false } } });
    const res = await api("GET", "/api/chats", noChat.user.token);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_PLAN_FEATURE_DISABLED");
  });

  it("asks for a title and at least one user with the spec's messages, and refuses users of another company", async () => {
    const empty = await api("POST", "/api/chats", t.user.token, { title: " ", users: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual({ title: "Por favor, preencha o título da conversa.", users: "Por favor, selecione pelo menos um usuário." });
    // only oneself is no one else
    const alone = await api("POST", "/api/chats", t.user.token, { title: "Eu", users: [t.user.id] });
    expect(alone.json()).toMatchObject({ error: "ERR_VALIDATION", message: "Por favor, selecione pelo menos um usuário." });
    const foreign = await api("POST", "/api/chats", t.user.token, { title: "Vazamento", users: [other.user.id] });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe("ERR_NO_USER_FOUND");
  });

  it("shows a chat to its members only; only the owner edits or deletes it", async () => {
    // the spec's front end sends the chosen users as objects
    const c = await create(t.user.token, { title: "Plantão", users: [{ id: t.supervisor.id, name: "Supervisor" }] });
    expect(c.users.map((u) => u.userId).sort()).toEqual([t.supervisor.id, t.user.id].sort());
    expect((await api("GET", `/api/chats/${c.id}`, t.supervisor.token)).statusCode).toBe(200);
    expect((await api("GET", `/api/chats/${c.uuid}`, t.supervisor.token)).json().id).toBe(c.id);
    for (const outsider of [t.admin.token, other.admin.token]) {
      expect((await api("GET", `/api/chats/${c.id}`, outsider)).statusCode).toBe(404);
      expect((await api("GET", `/api/chats/${c.id}/messages`, outsider)).statusCode).toBe(404);
      expect((await api("POST", `/api/chats/${c.id}/messages`, outsider, { message: "oi" })).statusCode).toBe(404);
      expect((await api("GET", "/api/chats", outsider)).json().records.map((r: { id: number }) => r.id)).not.toContain(c.id);
    }
    const put = await api("PUT", `/api/chats/${c.id}`, t.supervisor.token, { title: "Meu", users: [t.supervisor.id, t.admin.id] });
    expect(put.statusCode).toBe(403);
    expect((await api("DELETE", `/api/chats/${c.id}`, t.supervisor.token)).statusCode).toBe(403);
    const edited = await api("PUT", `/api/chats/${c.id}`, t.user.token, { title: "Plantão noturno", users: [t.admin.id] });
    expect(edited.json().title).toBe("Plantão noturno");
    expect(edited.json().users.map((u: { userId: number }) => u.userId).sort()).toEqual([t.admin.id, t.user.id].sort());
    expect((await api("GET", `/api/chats/${c.id}`, t.supervisor.token)).statusCode).toBe(404);
    expect((await api("DELETE", `/api/chats/${c.id}`, t.user.token)).statusCode).toBe(200);
    expect((await api("GET", `/api/chats/${c.id}`, t.admin.token)).statusCode).toBe(404);
  });
});

describe("chats: messages and unread counts", () => {
  it("counts unread messages per member, clears them on read, pages messages newest first", async () => {
    const c = await create(t.admin.token, { title: "Equipe", users: [t.supervisor.id, t.user.id] });
    for (let i = 1; i <= 23; i++) {
      const res = await api("POST", `/api/chats/${c.id}/messages`, i % 2 ? t.admin.token : t.user.token, { message: `mensagem ${i}` });
      expect(res.statusCode).toBe(200);
    }
    const chat = (await api("GET", `/api/chats/${c.id}`, t.supervisor.token)).json();
    expect(chat.lastMessage).toBe("mensagem 23");
    expect(unreadsOf(chat, t.supervisor.id)).toBe(23);
    expect(unreadsOf(chat, t.admin.id)).toBe(11); // the user's messages
    expect(unreadsOf(chat, t.user.id)).toBe(12); // the admin's messages
    const read = await api("POST", `/api/chats/${c.id}/read`, t.supervisor.token, { userId: t.supervisor.id });
    expect(unreadsOf(read.json(), t.supervisor.id)).toBe(0);
    expect(unreadsOf(read.json(), t.admin.id)).toBe(11);

    const p1 = (await api("GET", `/api/chats/${c.id}/messages?pageNumber=1`, t.user.token)).json();
    expect(p1.count).toBe(23);
    expect(p1.hasMore).toBe(true);
    expect(p1.records[0]).toMatchObject({ message: "mensagem 23", sender: { id: t.admin.id, name: "Admin" } });
    const p2 = (await api("GET", `/api/chats/${c.id}/messages?pageNumber=2`, t.user.token)).json();
    expect(p2.records.map((m: { message: string }) => m.message)).toEqual(["mensagem 3", "mensagem 2", "mensagem 1"]);
    expect(p2.hasMore).toBe(false);
    // the chat with the latest message comes first in everyone's list
    await create(t.admin.token, { title: "Outra", users: [t.user.id] });
    await api("POST", `/api/chats/${c.id}/messages`, t.admin.token, { message: "de volta ao topo" });
    expect((await api("GET", "/api/chats", t.user.token)).json().records[0].id).toBe(c.id);
    expect((await api("POST", `/api/chats/${c.id}/messages`, t.admin.token, { message: "   " })).statusCode).toBe(400);
  });
});

describe("chats: real time", () => {
  async function socketFor(token: string) {
    const socket: Socket = connect(base, { auth: { token }, transports: ["websocket"] });
    const events: { channel: string; payload: { action: string } }[] = [];
    socket.onAny((channel: string, payload: { action: string }) => events.push({ channel, payload }));
    await new Promise<void>((resolve, reject) => {
      socket.on("connect", () => resolve());
      socket.on("connect_error", reject);
    });
    return { socket, events };
  }

  it("delivers create, new-message and update to the chat's members only", async () => {
    const admin = await socketFor(t.admin.token);
    const supervisor = await socketFor(t.supervisor.token);
    const user = await socketFor(t.user.token);
    const foreign = await socketFor(other.admin.token);
    const c = await create(t.admin.token, { title: "Só nós", users: [t.user.id] });
    await api("POST", `/api/chats/${c.id}/messages`, t.user.token, { message: "oi" });
    const channel = `company-${t.companyId}-chat`;
    const actions = (s: { events: { channel: string; payload: { action: string } }[] }) => s.events.filter((e) => e.channel === channel).map((e) => e.payload.action);
    // the members' events first (the request's emits go out together), then everything before the marker
    await waitFor(async () => actions(admin).length >= 2 && actions(user).length >= 2, 5000, "the members' chat events");
    await socketsCaughtUp(app, [admin.socket, supervisor.socket, user.socket, foreign.socket]);
    expect(actions(admin)).toEqual(["create", "new-message"]);
    expect(actions(user)).toEqual(["create", "new-message"]);
    expect(actions(supervisor)).toEqual([]);
    expect(foreign.events.filter((e) => e.channel.endsWith("-chat"))).toEqual([]);
    for (const s of [admin, supervisor, user, foreign]) s.socket.close();
  });
});
