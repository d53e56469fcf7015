import { describe, expect, it } from "vitest";
import { ContentUrls } from "../campaign-links/content-urls.js";
import { fillPlaceholders, templatePlaceholders, trackHtml } from "./render.js";
import { readTrackingToken, signTrackingToken } from "./tokens.js";

const SECRET = "x".repeat(40);

describe("tracking tokens", () => {
  it("read back only with the same key and kind, and not once altered", () => {
    const token = signTrackingToken(SECRET, "c", [7, "42", "https://loja.test/a?b=1"]);
    expect(readTrackingToken(SECRET, "c", token)).toEqual([7, "42", "https://loja.test/a?b=1"]);
    expect(readTrackingToken(SECRET, "u", token)).toBeNull();
    expect(readTrackingToken("y".repeat(40), "c", token)).toBeNull();
    const [payload, mac] = token.split(".");
    const forged = Buffer.from(JSON.stringify(["c", 8, "42", "https://evil.test/"])).toString("base64url");
    expect(readTrackingToken(SECRET, "c", `${forged}.${mac}`)).toBeNull();
    expect(readTrackingToken(SECRET, "c", `${payload}.${mac!.slice(0, -2)}AA`)).toBeNull();
    expect(readTrackingToken(SECRET, "c", "garbage")).toBeNull();
  });
});

describe("the recipient's HTML", () => {
  it("placeholders: found case-insensitively, filled escaped in HTML, a missing one left as written", () => {
    expect(templatePlaceholders("Olá {{Nome}}", "<p>{{ cidade }} {{nome}}</p>")).toEqual(["nome", "cidade"]);
    const values = new Map([["nome", '<b>"Ana"</b> & cia']]);
    expect(fillPlaceholders("Oi {{nome}} {{outro}}", values, true)).toBe("Oi &lt;b&gt;&quot;Ana&quot;&lt;/b&gt; &amp; cia {{outro}}");
    expect(fillPlaceholders("Oi {{NOME}}", values, false)).toBe('Oi <b>"Ana"</b> & cia');
  });

  it("http(s) links go through the click route, other links stay, a pixel and a footer before </body>", () => {
    const source = '<body><a href="https://a.test/x?y=1&amp;z=2">A</a><a href=\'mailto:b@c.test\'>B</a><a href="#top">C</a></body>';
    const html = trackHtml(source, { publicUrl: "https://app.test", appSecret: SECRET, companyId: 1, rowId: "9" }, ContentUrls.ofHtml(source));
    const click = /href="https:\/\/app\.test\/t\/c\/([^"]+)"/.exec(html)![1]!;
    expect(readTrackingToken(SECRET, "c", click)).toEqual([1, "9", "https://a.test/x?y=1&z=2"]);
    expect(html).toContain("href='mailto:b@c.test'");
    expect(html).toContain('href="#top"');
    expect(html).toMatch(/<img src="https:\/\/app\.test\/t\/o\/[^"]+\.gif" width="1" height="1"[^>]*><\/body>$/);
    expect(html).toMatch(/href="https:\/\/app\.test\/t\/u\/[^"]+">Descadastrar<\/a>/);
  });
});

describe("only the campaign's own URLs are tracked", () => {
  it("a link whose URL came from a recipient's data (a placeholder making its host) stays as it is", () => {
    const template = '<a href="https://loja.test/p?c={{codigo}}">A</a> <a href="{{site}}">B</a> <a href="https://{{sub}}.loja.test/">C</a>';
    const filled = fillPlaceholders(template, new Map([["codigo", "X1"], ["site", "https://evil.test/"], ["sub", "evil.test/#"]]), true);
    const html = trackHtml(filled, { publicUrl: "https://app.test", appSecret: SECRET, companyId: 1, rowId: "9" }, ContentUrls.ofHtml(template));
    const clicks = [...html.matchAll(/href="https:\/\/app\.test\/t\/c\/([^"]+)"/g)].map((m) => readTrackingToken(SECRET, "c", m[1]!));
    expect(clicks).toEqual([[1, "9", "https://loja.test/p?c=X1"]]);
    expect(html).toContain('href="https://evil.test/"');
    expect(html).toContain('href="https://evil.test/#.loja.test/"');
  });
});
