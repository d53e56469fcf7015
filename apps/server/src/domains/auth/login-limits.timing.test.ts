import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCompany, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";
import { expectEvery } from "../../../test/expect-every.js";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

let ipCount = 1;
const freshIp = () => `172.16.${ipCount >> 8}.${ipCount++ & 255}`;
const login = (email: string, ip: string, password = "wrong-password") =>
  app.api("POST", "/api/auth/login", { body: { email, password }, headers: { "x-forwarded-for": ip } });

describe("login and reset floods", () => {
  it("limits logins per address across e-mails: 60 a minute", async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await login(`nobody${i}@nowhere.test`, ip)).statusCode);
    expectEvery(statuses.slice(0, 60), (s) => s === 401);
    expect(statuses[60]).toBe(429);
    const real = await buildUser(app.sql, await buildCompany(app.sql));
    expect((await login(real.email, ip, "secret123")).json().error).toBe("ERR_TOO_MANY_REQUESTS");
    expect((await login(real.email, freshIp(), "secret123")).statusCode).toBe(200);
  });

  it("limits logins per e-mail across addresses: 30 a minute", async () => {
    const user = await buildUser(app.sql, await buildCompany(app.sql));
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await login(user.email, freshIp())).statusCode);
    expectEvery(statuses.slice(0, 30), (s) => s === 401);
    expect(statuses[30]).toBe(429);
  });

  it("limits reset-code requests per e-mail across addresses: 5 a minute", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await app.api("POST", "/api/forgetpassword/target%40nowhere.test", { headers: { "x-forwarded-for": freshIp() } })).statusCode);
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
  });

  it("limits guesses of one's current password: 10 a minute per user", async () => {
    const user = await buildUser(app.sql, await buildCompany(app.sql));
    const token = await app.login(user.email);
    const codes: string[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await app.api("PUT", `/api/users/${user.id}`, { token, body: { password: "outrasenha", currentPassword: `guess${i}xx` } });
      codes.push(res.json().error);
    }
    expectEvery(codes.slice(0, 10), (c) => c === "ERR_INVALID_CURRENT_PASSWORD");
    expect(codes[10]).toBe("ERR_TOO_MANY_REQUESTS");
    // Other edits are not counted.
    expect((await app.api("PUT", `/api/users/${user.id}`, { token, body: { name: "Still Editable" } })).statusCode).toBe(200);
  });
});
