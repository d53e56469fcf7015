import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";

/**
 * "Online" is one rule (isOnline, packages/shared/src/presence.ts): the socket flag is set and the
 * user was seen (connect or userStatus) less than 10 minutes ago. The dashboard's attendants and the
 * users page must say the same of every user. Before the rule, the dashboard said "seen in the last 5
 * minutes" (online after closing the app) and the users page showed the bare flag (online forever after
 * a crashed process).
 */

let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;

/** name → [socket flag, minutes since last seen (null: never)] */
const STATES: Record<string, [boolean, number | null]> = {
  "P1 conectado agora": [true, 1],
  "P2 conectado há 8 min": [true, 8],
  "P3 fechou o app há 2 min": [false, 2],
  "P4 sinal velho (processo caiu)": [true, 15],
  "P5 nunca entrou": [false, null],
};

beforeAll(async () => {
  app = await createTestApp();
  t = await buildTenant(app);
  for (const [name, [flag, minutes]] of Object.entries(STATES)) {
    const u = await buildUser(app.sql, t.companyId, { profile: "user", name });
    await app.sql.exec(`UPDATE users SET online = $2, last_seen_at = CASE WHEN $3::int IS NULL THEN NULL ELSE now() - make_interval(mins => $3::int) END WHERE id = $1`, [
      u.id,
      flag,
      minutes,
    ]);
  }
});
afterAll(async () => {
  await app.close();
});

describe("online: the dashboard and the users page agree", () => {
  it("applies one rule to every state", async () => {
    const dash = await app.api("GET", "/api/dashboard?days=1", { token: t.admin.token });
    expect(dash.statusCode, dash.body).toBe(200);
    const users = await app.api("GET", "/api/users?searchParam=P", { token: t.admin.token });
    expect(users.statusCode, users.body).toBe(200);
    const mine = (rows: { name: string; online: boolean }[]) =>
      Object.fromEntries(rows.filter((r) => r.name in STATES).map((r) => [r.name, r.online]));
    const expected = {
      "P1 conectado agora": true,
      "P2 conectado há 8 min": true,
      "P3 fechou o app há 2 min": false,
      "P4 sinal velho (processo caiu)": false,
      "P5 nunca entrou": false,
    };
    expect(mine(dash.json().attendants as { name: string; online: boolean }[]), "dashboard").toEqual(expected);
    expect(mine(users.json().users as { name: string; online: boolean }[]), "users page").toEqual(expected);
  });
});
