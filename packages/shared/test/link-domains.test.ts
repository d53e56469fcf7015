import { describe, expect, it } from "vitest";
import { isOwnLinkHost, parseLinkDomains } from "../src/link-domains.js";
import { settingValue } from "../src/schemas/settings.js";

describe("a company's own domains", () => {
  it("parsed from the setting: host names lower-cased, each once; anything else refused", () => {
    expect(parseLinkDomains("")).toEqual([]);
    expect(parseLinkDomains("Loja.com.BR, lojaexemplo.com\nloja.com.br.")).toEqual(["loja.com.br", "lojaexemplo.com"]);
    for (const bad of ["https://loja.com.br", "loja.com.br/x", "loja.com.br:8443", "localhost", "loja", "-a.com", "a..com", "1.2.3.4"]) expect(parseLinkDomains(bad), bad).toBeNull();
    expect(parseLinkDomains(Array.from({ length: 11 }, (_, i) => `d${i}.com`).join(","))).toBeNull();
    expect(settingValue("linkDomains", " Loja.com.br ,x.com ")).toEqual({ value: "loja.com.br, x.com" });
    expect(settingValue("linkHost", "Links.Loja.com.br")).toEqual({ value: "links.loja.com.br" });
    expect(settingValue("linkHost", "https://links.loja.com.br/")).toEqual({ refusal: "A host name (e.g. links.loja.com.br), without https:// or a path" });
    expect(settingValue("userRating", "maybe")).toEqual({ refusal: "One of: enabled, disabled" });
  });

  it("a host is own when it is one of them or a subdomain of one", () => {
    const own = ["loja.com.br"];
    expect(isOwnLinkHost("loja.com.br", own)).toBe(true);
    expect(isOwnLinkHost("www.LOJA.com.br", own)).toBe(true);
    expect(isOwnLinkHost("outraloja.com.br", own)).toBe(false);
    expect(isOwnLinkHost("loja.com.br.evil.test", own)).toBe(false);
    expect(isOwnLinkHost("loja.com.br", [])).toBe(false);
  });
});
