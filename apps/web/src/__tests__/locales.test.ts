import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, LANGUAGES } from "@atende/shared";

type Tree = { [k: string]: string | Tree };
const src = path.resolve(import.meta.dirname, "..");

function keys(tree: Tree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([k, v]) => (typeof v === "string" ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`)));
}

function localeDirs(): string[] {
  const features = readdirSync(path.join(src, "features")).map((f) => path.join(src, "features", f, "locales"));
  return [path.join(src, "locales"), ...features].filter((d) => existsSync(d));
}

describe("translations", () => {
  it("every error code of the catalogue has a text in every language", () => {
    for (const lang of LANGUAGES) {
      const core = JSON.parse(readFileSync(path.join(src, "locales", `${lang}.json`), "utf8")) as { backendErrors: Record<string, string> };
      const missing = ERROR_CODES.filter((c) => !core.backendErrors[c]);
      expect(missing, `${lang} lacks`).toEqual([]);
    }
  });

  it("each locale folder has the same keys in pt, en and es", () => {
    for (const dir of localeDirs()) {
      const sets = LANGUAGES.map((l) => {
        const file = path.join(dir, `${l}.json`);
        expect(existsSync(file), file).toBe(true);
        return keys(JSON.parse(readFileSync(file, "utf8")) as Tree).sort();
      });
      expect(sets[1], `${dir} en vs pt`).toEqual(sets[0]);
      expect(sets[2], `${dir} es vs pt`).toEqual(sets[0]);
    }
  });
});
