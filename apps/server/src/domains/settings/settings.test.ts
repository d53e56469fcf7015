import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { io as connect, type Socket } from "socket.io-client";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { socketsCaughtUp } from "../../../test/socket-fence.js";

let app: TestApp;
let base: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
const sockets: Socket[] = [];

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

async function socketFor(token: string): Promise<Socket> {
  const socket = connect(base, { auth: { token }, transports: ["websocket"] });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.on("connect", () => resolve());
    socket.on("connect_error", reject);
  });
  return socket;
}

describe("settings", () => {
  it("refuses both routes without a session", async () => {
    expect((await app.api("GET", "/api/settings")).statusCode).toBe(401);
    expect((await app.api("PUT", "/api/settings/userRating", { body: { value: "enabled" } })).statusCode).toBe(401);
  });

  it("lists every key with its documented default to any user", async () => {
    const res = await app.api("GET", "/api/settings", { token: t.user.token });
    expect(res.statusCode).toBe(200);
    const map = Object.fromEntries((res.json() as { key: string; value: string }[]).map((s) => [s.key, s.value]));
    expect(map).toEqual({
      userCreation: "enabled",
      requireTagBeforeClosing: "disabled",
      restrictSystemQueuesVisibility: "disabled",
      enableBlockList: "disabled",
      sendGreetingAccepted: "disabled",
      scheduleType: "disabled",
      campaignsEnabled: "true",
      userRating: "disabled",
      signMessages: "enabled",
      linkDomains: "",
      linkHost: "",
      shareContactHistory: "disabled",
      webhookRetentionDays: "3",
    });
  });

  it("lets only admins change a setting", async () => {
    for (const who of [t.user, t.supervisor]) {
      const res = await app.api("PUT", "/api/settings/userRating", { token: who.token, body: { value: "enabled" } });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe("ERR_NO_PERMISSION");
    }
  });

  it("updates a setting of the actor's company only and emits it to that company", async () => {
    const mine = await socketFor(t.user.token);
    const theirs = await socketFor(other.user.token);
    let leaked = false;
    theirs.on(`company-${t.companyId}-settings`, () => (leaked = true));
    const event = new Promise((resolve) => mine.once(`company-${t.companyId}-settings`, resolve));
    const res = await app.api("PUT", "/api/settings/requireTagBeforeClosing", {
      token: t.admin.token,
      body: { key: "requireTagBeforeClosing", value: "enabled" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ key: "requireTagBeforeClosing", value: "enabled" });
    await expect(event).resolves.toEqual({ action: "update", setting: { key: "requireTagBeforeClosing", value: "enabled" } });
    const list = (await app.api("GET", "/api/settings", { token: t.user.token })).json();
    expect(list).toContainEqual({ key: "requireTagBeforeClosing", value: "enabled" });
    const otherList = (await app.api("GET", "/api/settings", { token: other.user.token })).json();
    expect(otherList).toContainEqual({ key: "requireTagBeforeClosing", value: "disabled" });
    expect((await app.api("GET", "/api/auth/me", { token: t.user.token })).json().company.settings).toContainEqual({
      key: "requireTagBeforeClosing",
      value: "enabled",
    });
    await socketsCaughtUp(app, [theirs]);
    expect(leaked).toBe(false);
  });

  it("keeps the company's campaignsEnabled in step with the setting", async () => {
    const res = await app.api("PUT", "/api/settings/campaignsEnabled", { token: t.admin.token, body: { value: "false" } });
    expect(res.statusCode).toBe(200);
    const row = await app.sql.one<{ campaigns_enabled: boolean }>("SELECT campaigns_enabled FROM companies WHERE id = $1", [t.companyId]);
    expect(row.campaigns_enabled).toBe(false);
  });

  it("refuses an unknown key and a value outside the allowed ones", async () => {
    const key = await app.api("PUT", "/api/settings/nope", { token: t.admin.token, body: { value: "enabled" } });
    expect(key.statusCode).toBe(404);
    expect(key.json().error).toBe("ERR_NO_SETTING_FOUND");
    const proto = await app.api("PUT", "/api/settings/__proto__", { token: t.admin.token, body: { value: "enabled" } });
    expect(proto.json().error).toBe("ERR_NO_SETTING_FOUND");
    const value = await app.api("PUT", "/api/settings/scheduleType", { token: t.admin.token, body: { value: "sometimes" } });
    expect(value.statusCode).toBe(400);
    expect(value.json().error).toBe("ERR_VALIDATION");
    const ok = await app.api("PUT", "/api/settings/scheduleType", { token: t.admin.token, body: { value: "queue" } });
    expect(ok.statusCode).toBe(200);
    const missing = await app.api("PUT", "/api/settings/scheduleType", { token: t.admin.token, body: {} });
    expect(missing.statusCode).toBe(400);
  });

  it("the company's own domains and link host: host names only, stored lower-cased; admins only", async () => {
    const put = (key: string, value: string, token = t.admin.token) => app.api("PUT", `/api/settings/${key}`, { token, body: { value } });
    expect((await put("linkDomains", "loja.com.br", t.supervisor.token)).statusCode).toBe(403);
    for (const bad of ["https://loja.com.br", "loja.com.br/ofertas", "loja", "*.loja.com.br"]) {
      const res = await put("linkDomains", bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { value: "Host names separated by commas (e.g. loja.com.br), at most 10" } });
    }
    expect((await put("linkDomains", "Loja.com.br,  loja-exemplo.com")).json()).toEqual({ key: "linkDomains", value: "loja.com.br, loja-exemplo.com" });
    expect((await put("linkHost", "links.loja.com.br/s")).json()).toMatchObject({ error: "ERR_VALIDATION" });
    expect((await put("linkHost", "Links.Loja.com.br")).json()).toEqual({ key: "linkHost", value: "links.loja.com.br" });
    const list = (await app.api("GET", "/api/settings", { token: t.user.token })).json();
    expect(list).toContainEqual({ key: "linkDomains", value: "loja.com.br, loja-exemplo.com" });
    expect(list).toContainEqual({ key: "linkHost", value: "links.loja.com.br" });
    expect((await app.api("GET", "/api/settings", { token: other.user.token })).json()).toContainEqual({ key: "linkDomains", value: "" });
    await put("linkDomains", "");
    await put("linkHost", "");
  });
});
