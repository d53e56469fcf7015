import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { addOptOut, isOptedOut, optedOutAmong, pageOptOuts, removeOptOut } from "./repository.js";

let app: TestApp;
let a: Awaited<ReturnType<typeof buildTenant>>;
let b: Awaited<ReturnType<typeof buildTenant>>;

beforeAll(async () => {
  app = await createTestApp();
  a = await buildTenant(app);
  b = await buildTenant(app);
});
afterAll(async () => {
  await app.close();
});

describe("the opt-out list", () => {
  it("adds once per company and channel, in any written form, and keeps the first reason", async () => {
    const sql = app.sql;
    expect(await addOptOut(sql, a.companyId, "sms", "+55 11 99999-0001", "reply", "sms-campaign:1")).toBe(true);
    expect(await addOptOut(sql, a.companyId, "sms", "5511999990001", "admin")).toBe(false);
    expect(await addOptOut(sql, a.companyId, "email", "Ana@Example.com", "unsubscribe")).toBe(true);
    expect(await isOptedOut(sql, a.companyId, "email", "ana@example.COM")).toBe(true);
    expect(await isOptedOut(sql, a.companyId, "sms", "ana@example.com")).toBe(false);
    expect(await isOptedOut(sql, b.companyId, "sms", "5511999990001")).toBe(false);
    const { rows } = await pageOptOuts(sql, a.companyId, { channel: "sms", search: "" }, 10, 0);
    expect(rows.map((r) => [r.address, r.source, r.reference])).toEqual([["5511999990001", "reply", "sms-campaign:1"]]);
  });

  it("answers a batch of addresses with one query and removes an address", async () => {
    const sql = app.sql;
    const found = await optedOutAmong(sql, a.companyId, "sms", ["5511999990001", "5511999990002", "+55 11 99999 0001"]);
    expect([...found]).toEqual(["5511999990001"]);
    expect(await removeOptOut(sql, a.companyId, "sms", "+5511999990001")).toBe(true);
    expect(await isOptedOut(sql, a.companyId, "sms", "5511999990001")).toBe(false);
  });
});
