import { test as base, expect, type Page } from "@playwright/test";
import { createPool, Sql } from "../../apps/server/src/db/sql.js";
import { DEV_SECRETS_KEYS, parseKeyRing } from "../../apps/server/src/core/secrets/key-ring.js";
import { SecretSealer } from "../../apps/server/src/core/secrets/sealer.js";
import { buildCompany, buildQueue, buildUser, sealStored, TEST_PASSWORD, type PlanOverrides } from "../../apps/server/test/factories.js";
import { E2E_ADMIN } from "./constants.js";

export { expect, E2E_ADMIN, TEST_PASSWORD };

let sql: Sql | undefined;
/** Direct database access for arranging test data (the same factories as the API tests). */
export function db(): Sql {
  sql ??= new Sql(createPool(process.env.E2E_DATABASE_URL!, 3));
  return sql;
}

/** Writes credentials as the server stores them: sealed for the row (the browser tests' server runs on the development key). */
export function sealIn(table: "businesses" | "prompts" | "queue_integrations", id: number, values: Record<string, string>): Promise<void> {
  return sealStored(db(), new SecretSealer(parseKeyRing(DEV_SECRETS_KEYS)), table, id, values);
}

export interface Tenant {
  companyId: number;
  admin: { id: number; email: string };
  supervisor: { id: number; email: string };
  user: { id: number; email: string };
}

/** A fresh company with an admin, a supervisor and an agent (password TEST_PASSWORD). */
export async function createTenant(o: { plan?: PlanOverrides; dueDate?: string | null } = {}): Promise<Tenant> {
  const companyId = await buildCompany(db(), o);
  return {
    companyId,
    admin: await buildUser(db(), companyId, { profile: "admin", name: "Ana Admin" }),
    supervisor: await buildUser(db(), companyId, { profile: "supervisor", name: "Sergio Supervisor" }),
    user: await buildUser(db(), companyId, { profile: "user", name: "Ulisses Agente" }),
  };
}

export { buildCompany, buildQueue, buildUser };

/** Logs in through the login form and waits for /tickets. */
export async function login(page: Page, email: string, password = TEST_PASSWORD): Promise<void> {
  await page.goto("/login");
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL("**/tickets**");
}

export const test = base.extend({
  // The server's address is known only after global setup.
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures must destructure their dependencies
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
  },
});
