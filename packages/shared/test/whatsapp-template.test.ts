import { describe, expect, it } from "vitest";
import { fillTemplate } from "../src/whatsapp-template.js";

describe("fillTemplate", () => {
  it("sends positional parameters in numeric order ({{2}} before {{10}}) whatever their order in the text", () => {
    const body = { type: "BODY", text: "{{10}} {{2}} {{1}} {{3}} {{4}} {{5}} {{6}} {{7}} {{8}} {{9}} {{2}}" };
    const values = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
    const filled = fillTemplate([body], "POSITIONAL", { variables: values });
    expect(filled.components).toEqual([{ type: "body", parameters: values.map((text) => ({ type: "text", text })) }]);
    expect(filled.text).toBe("j b a c d e f g h i b");
    expect(filled.missing).toEqual([]);
  });

  it("keeps an unfilled placeholder visible in the preview and names it as missing", () => {
    const filled = fillTemplate([{ type: "BODY", text: "Olá {{1}}, pedido {{2}}" }], "POSITIONAL", { variables: ["Ana"] });
    expect(filled.text).toBe("Olá Ana, pedido {{2}}");
    expect(filled.missing).toEqual(["body.2"]);
  });

  it("sends no component for a template without variables, and a static URL button only in the text", () => {
    const filled = fillTemplate(
      [
        { type: "BODY", text: "Obrigado pela compra!" },
        { type: "BUTTONS", buttons: [{ type: "URL", text: "Site", url: "https://loja.test" }, { type: "PHONE_NUMBER", text: "Ligar", phone_number: "+551130000000" }] },
      ],
      "POSITIONAL",
      {},
    );
    expect(filled).toEqual({ components: [], text: "Obrigado pela compra!\n\n[Site] https://loja.test\n[Ligar] +551130000000", missing: [], invalid: [] });
  });
});
