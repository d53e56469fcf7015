// @vitest-environment happy-dom
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LANGUAGES, TICKET_ORIGIN_LABELS, TICKET_STATUS_LABELS } from "@atende/shared";
import i18n, { i18nReady } from "../lib/i18n";

type Tree = { [k: string]: string | Tree };
const src = path.resolve(import.meta.dirname, "..");
const flat = (tree: Tree, prefix = ""): [string, string][] =>
  Object.entries(tree).flatMap(([k, v]) => (typeof v === "string" ? [[`${prefix}${k}`, v] as [string, string]] : flat(v, `${prefix}${k}.`)));
const files = () =>
  [path.join(src, "locales"), ...readdirSync(path.join(src, "features")).map((f) => path.join(src, "features", f, "locales"))]
    .filter((d) => existsSync(d))
    .flatMap((d) => LANGUAGES.map((l) => path.join(d, `${l}.json`)));

beforeAll(async () => {
  await i18nReady;
});
afterAll(() => i18n.changeLanguage("pt"));

describe("counts agree with their nouns", () => {
  it("every plural key has _zero, _one and _other (pt reads 0 as singular without _zero: '0 resposta')", () => {
    for (const file of files()) {
      const keys = new Set(flat(JSON.parse(readFileSync(file, "utf8")) as Tree).map(([k]) => k));
      for (const k of keys) {
        const m = /^(.*)_(zero|one|other)$/.exec(k);
        if (!m) continue;
        for (const form of ["zero", "one", "other"]) expect(keys.has(`${m[1]}_${form}`), `${file}: ${m[1]}_${form}`).toBe(true);
      }
    }
  });

  it("no text shows a count with a fixed plural noun under a plain key", () => {
    // a {{count}} followed by a word, in a key without plural forms, is a text that says '1 colunas'
    for (const file of files().filter((f) => f.endsWith("pt.json"))) {
      for (const [k, v] of flat(JSON.parse(readFileSync(file, "utf8")) as Tree)) {
        if (/_(zero|one|other)$/.test(k)) continue;
        expect(/\{\{count\}\} [a-zà-ú]/i.test(v) && !/letras|requisições/.test(v), `${file}: ${k} = ${v}`).toBe(false);
      }
    }
  });

  it("pt: 0 respostas, 1 resposta, 1 coluna, 2 colunas", async () => {
    await i18n.changeLanguage("pt");
    expect(i18n.t("reports.cards.answers", { count: 0 })).toBe("0 respostas");
    expect(i18n.t("reports.cards.answers", { count: 1 })).toBe("1 resposta");
    expect(i18n.t("campaigns.form.variables", { count: 1 })).toBe("1 coluna de variável");
    expect(i18n.t("campaigns.form.variables", { count: 2 })).toBe("2 colunas de variáveis");
    expect(i18n.t("campaigns.analysed", { count: 1 })).toBe("1 linha analisada");
    expect(i18n.t("tickets.manager.queuesSelected", { count: 0 })).toBe("0 filas");
    expect(i18n.t("tickets.messages.hiddenRun", { count: 0, queue: "Vendas" })).toBe("0 mensagens de outro atendimento na fila Vendas ocultadas");
    expect(i18n.t("login.dueSoon", { count: 1 })).toBe("Sua assinatura vence em 1 dia.");
    expect(i18n.t("login.dueSoon", { count: 3 })).toBe("Sua assinatura vence em 3 dias.");
  });

  it("en: 0 answers, 1 answer", async () => {
    await i18n.changeLanguage("en");
    expect(i18n.t("reports.cards.answers", { count: 0 })).toBe("0 answers");
    expect(i18n.t("reports.cards.answers", { count: 1 })).toBe("1 answer");
  });
});

describe("ticket status names", () => {
  it("the reports screen names statuses and origins as the server's CSV export does (packages/shared)", () => {
    for (const lang of LANGUAGES) {
      const tree = JSON.parse(readFileSync(path.join(src, "features", "reports", "locales", `${lang}.json`), "utf8")) as {
        reports: { filter: { statuses: Record<string, string>; origins: Record<string, string> } };
      };
      expect(tree.reports.filter.statuses, lang).toEqual(TICKET_STATUS_LABELS[lang]);
      expect(tree.reports.filter.origins, lang).toEqual(TICKET_ORIGIN_LABELS[lang]);
    }
  });
});
