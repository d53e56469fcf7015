import { describe, expect, it } from "vitest";
import { parseWhatsApp, stripWhatsApp, truncateWhatsApp, whatsAppPreview } from "../src/whatsapp-format.js";

describe("parseWhatsApp", () => {
  it("reads the four styles and inline code", () => {
    expect(parseWhatsApp("*bold* _italic_ ~strike~ ```mono``` `code`")).toEqual([
      { type: "bold", children: [{ type: "text", text: "bold" }] },
      { type: "text", text: " " },
      { type: "italic", children: [{ type: "text", text: "italic" }] },
      { type: "text", text: " " },
      { type: "strike", children: [{ type: "text", text: "strike" }] },
      { type: "text", text: " " },
      { type: "mono", text: "mono" },
      { type: "text", text: " " },
      { type: "code", text: "code" },
    ]);
  });

  it("needs markers that hug the text", () => {
    expect(parseWhatsApp("* not bold *")).toEqual([{ type: "text", text: "* not bold *" }]);
    expect(parseWhatsApp("*not bold *")).toEqual([{ type: "text", text: "*not bold *" }]);
    expect(parseWhatsApp("_ x_")).toEqual([{ type: "text", text: "_ x_" }]);
    expect(parseWhatsApp("**")).toEqual([{ type: "text", text: "**" }]);
  });

  it("leaves markers inside words alone", () => {
    expect(parseWhatsApp("2*3*4")).toEqual([{ type: "text", text: "2*3*4" }]);
    expect(parseWhatsApp("snake_case_name")).toEqual([{ type: "text", text: "snake_case_name" }]);
    expect(parseWhatsApp("*bold*s")).toEqual([{ type: "text", text: "*bold*s" }]);
  });

  it("accepts punctuation around markers", () => {
    expect(parseWhatsApp("(*sim*), ok")).toEqual([
      { type: "text", text: "(" },
      { type: "bold", children: [{ type: "text", text: "sim" }] },
      { type: "text", text: "), ok" },
    ]);
  });

  it("nests styles", () => {
    expect(parseWhatsApp("*_x_*")).toEqual([{ type: "bold", children: [{ type: "italic", children: [{ type: "text", text: "x" }] }] }]);
    expect(parseWhatsApp("~*a* b~")).toEqual([
      { type: "strike", children: [{ type: "bold", children: [{ type: "text", text: "a" }] }, { type: "text", text: " b" }] },
    ]);
  });

  it("keeps bold, italic and strike on one line; monospace may span lines and is not formatted inside", () => {
    expect(parseWhatsApp("*a\nb*")).toEqual([{ type: "text", text: "*a\nb*" }]);
    expect(parseWhatsApp("```a *b*\nc```")).toEqual([{ type: "mono", text: "a *b*\nc" }]);
    expect(parseWhatsApp("`*x*`")).toEqual([{ type: "code", text: "*x*" }]);
  });

  it("turns addresses into links without formatting them, leaving the sentence's punctuation out", () => {
    expect(parseWhatsApp("see https://ex.com/a_b_c.")).toEqual([
      { type: "text", text: "see " },
      { type: "link", href: "https://ex.com/a_b_c", text: "https://ex.com/a_b_c" },
      { type: "text", text: "." },
    ]);
    expect(parseWhatsApp("*https://ex.com*")).toEqual([{ type: "bold", children: [{ type: "link", href: "https://ex.com", text: "https://ex.com" }] }]);
    expect(parseWhatsApp("javascript:alert(1)")).toEqual([{ type: "text", text: "javascript:alert(1)" }]);
  });

  it("keeps markup as text", () => {
    expect(parseWhatsApp("<b>*x*</b>")).toEqual([
      { type: "text", text: "<b>" },
      { type: "bold", children: [{ type: "text", text: "x" }] },
      { type: "text", text: "</b>" },
    ]);
  });
});

describe("stripWhatsApp and whatsAppPreview", () => {
  it("drop the marks and keep what is not formatting", () => {
    expect(stripWhatsApp("*Olá* _mundo_ ~x~ ```y``` `z` 2*3*4")).toBe("Olá mundo x y z 2*3*4");
    expect(whatsAppPreview("*Pedido*\n\n_confirmado_   hoje")).toBe("Pedido confirmado hoje");
  });
});

describe("truncateWhatsApp", () => {
  it("counts only visible characters and keeps the styles of what remains", () => {
    expect(truncateWhatsApp("*Bom dia* cliente", 6)).toEqual([{ type: "bold", children: [{ type: "text", text: "Bom di" }] }, { type: "text", text: "..." }]);
    expect(truncateWhatsApp("*ok*", 2)).toEqual([{ type: "bold", children: [{ type: "text", text: "ok" }] }]);
    expect(truncateWhatsApp("ver https://ex.com/abc", 10)).toEqual([{ type: "text", text: "ver " }, { type: "text", text: "https:" }, { type: "text", text: "..." }]);
  });
});
