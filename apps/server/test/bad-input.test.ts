import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "./helper.js";

let app: TestApp;
let token: string;

beforeAll(async () => {
  app = await createTestApp();
  token = (await buildTenant(app)).admin.token;
});
afterAll(async () => {
  await app.close();
});

describe("bad input never becomes a 500", () => {
  it("answers every route's junk ids, junk queries and junk bodies with a catalogue error", async () => {
    const routes = app.routes;
    expect(routes.length).toBeGreaterThan(80);
    const failures: string[] = [];
    for (const { method, url } of routes) {
      for (const id of ["abc", "99999999", "-1"]) {
        const path = url.replace(/:[A-Za-z]+/g, id) + "?pageNumber=x&searchParam=%00&queueIds=[oops&status=nope";
        for (const body of [undefined, { junk: true, name: 12, ids: "x" }]) {
          const res = await app.api(method, path, { token, body: method === "GET" || method === "DELETE" ? undefined : body });
          if (res.statusCode >= 500) failures.push(`${method} ${path} → ${res.statusCode} ${res.body.slice(0, 120)}`);
          else if (res.statusCode >= 400 && !/^ERR_/.test(String(res.json().error ?? ""))) failures.push(`${method} ${path} → ${res.statusCode} without a code`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);
});
