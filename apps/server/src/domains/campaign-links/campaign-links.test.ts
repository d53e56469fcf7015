import { describe, expect, it } from "vitest";
import { clickPage, clickPageLanguage } from "./click-page.js";
import { ContentUrls } from "./content-urls.js";

describe("the URLs of a campaign's own content", () => {
  const sms = ContentUrls.ofText("Oi {{nome}}, veja https://loja.test/oferta?id=7 e https://loja.test/p/{{ codigo }}. Ou {{link}} ou https://{{sub}}.loja.test/x");

  it("a URL written out is allowed exactly as written", () => {
    expect(sms.allows("https://loja.test/oferta?id=7")).toBe(true);
    expect(sms.allows("https://loja.test/oferta?id=8")).toBe(false);
    expect(sms.allows("https://loja.test/oferta?id=7&x=1")).toBe(false);
    expect(sms.allows("https://evil.test/")).toBe(false);
  });

  it("a placeholder after the origin matches any filling; the origin must stay the written one", () => {
    expect(sms.allows("https://loja.test/p/ABC-123")).toBe(true);
    expect(sms.allows("https://loja.test/p/")).toBe(true);
    expect(sms.allows("https://loja.test/q/ABC")).toBe(false);
    expect(sms.allows("https://loja.test.evil.test/p/ABC")).toBe(false);
  });

  it("a URL whose host comes from a placeholder (or is only one) is never content", () => {
    expect(sms.allows("https://evil.loja.test/x")).toBe(false);
    expect(sms.allows("https://evil.test/#.loja.test/x")).toBe(false);
    expect(ContentUrls.ofText("{{link}}").allows("https://evil.test/")).toBe(false);
    expect(ContentUrls.ofText("").allows("https://loja.test/")).toBe(false);
  });

  it("in HTML: the hrefs of links, entities decoded; a URL only in the text is not a link", () => {
    const html = ContentUrls.ofHtml(`<p>https://texto.test/</p><a class="b" href='https://loja.test/a?x=1&amp;y={{v}}'>A</a><a href="mailto:a@b.test">m</a>`);
    expect(html.allows("https://loja.test/a?x=1&y=2")).toBe(true);
    expect(html.allows("https://loja.test/a?x=2&y=2")).toBe(false);
    expect(html.allows("https://texto.test/")).toBe(false);
    expect(html.allows("mailto:a@b.test")).toBe(false);
  });
});

describe("the click page", () => {
  it("names the destination host and URL, escaped, with the company, in the visitor's language", () => {
    const html = clickPage('https://evil.test/a?b=<x>&c="1"', "Loja <A&B>", "pt");
    expect(html).toContain('<p class="host" data-testid="click-destination-host">evil.test</p>');
    expect(html).toContain('<span data-testid="click-destination">https://evil.test/a?b=&lt;x&gt;&amp;c=&quot;1&quot;</span>');
    expect(html).toContain('href="https://evil.test/a?b=&lt;x&gt;&amp;c=&quot;1&quot;" rel="noopener noreferrer nofollow">Continuar para evil.test</a>');
    expect(html).toContain("Este link foi enviado por <strong>Loja &lt;A&amp;B&gt;</strong>");
    expect(clickPage("https://x.test/", "L", "en")).toContain("Continue to x.test");
    expect(clickPage("https://x.test/", "L", "es")).toContain("Continuar a x.test");
    expect(clickPageLanguage("en-US,en;q=0.9,pt;q=0.8")).toBe("en");
    expect(clickPageLanguage("fr-FR, es;q=0.5")).toBe("es");
    expect(clickPageLanguage(undefined)).toBe("pt");
  });
});
