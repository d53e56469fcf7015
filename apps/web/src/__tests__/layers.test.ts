import { readdirSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The lint rule that keeps the web app's layers apart (eslint.config.js, docs/architecture.md "Web app
 * structure"), run on files written here: it must fire on a cross-feature import from every feature,
 * and stay quiet on the imports the layers allow.
 */
const root = path.resolve(import.meta.dirname, "../../../..");
const src = path.join(root, "apps/web/src");
const features = readdirSync(path.join(src, "features"), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

async function restrictedImports(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(src, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === "import-x/no-restricted-paths").map((m) => m.message);
}

describe("web app layers (import-x/no-restricted-paths)", () => {
  it("refuses, in every feature, an import from another feature", async () => {
    const quiet: string[] = [];
    for (const feature of features) {
      const other = feature === "tickets" ? "queues/page" : "tickets/types";
      const found = await restrictedImports(`features/${feature}/probe.ts`, `export * from "../${other}";\n`);
      if (found.length !== 1) quiet.push(feature);
    }
    expect(features.length).toBeGreaterThan(20);
    expect(quiet).toEqual([]);
  }, 60_000);

  it("names the way out in its message", async () => {
    const [message] = await restrictedImports("features/queues/probe.ts", 'import { cachedTickets } from "../tickets/offline/db";\nexport const x = cachedTickets;\n');
    expect(message).toContain("A feature does not import another feature");
  });

  it("refuses features importing app/, and lib/ or components/ importing a feature or app/", async () => {
    expect(await restrictedImports("features/queues/probe.ts", 'export * from "../../app/routes";\n')).toHaveLength(1);
    expect(await restrictedImports("lib/probe.ts", 'export * from "../features/tickets/types";\n')).toHaveLength(1);
    expect(await restrictedImports("components/probe.ts", 'export * from "../app/routes";\n')).toHaveLength(1);
    expect(await restrictedImports("lib/probe.ts", 'export const load = () => import("../features/tags/page");\n')).toHaveLength(1);
  });

  it("allows a feature's own files, the shared layers, and app/ composing features", async () => {
    expect(await restrictedImports("features/tickets/probe.ts", 'export * from "./offline/db";\nexport * from "../../lib/session";\nexport * from "../../components/page-heading";\n')).toEqual([]);
    expect(await restrictedImports("app/probe.ts", 'export * from "../features/tickets/offline/db";\n')).toEqual([]);
    expect(await restrictedImports("main-probe.ts", 'export * from "./features/tickets/offline/db";\n')).toEqual([]);
  });
});
