// @vitest-environment happy-dom
import { afterAll, describe, expect, it } from "vitest";
import i18n from "../lib/i18n";
import { formMessage } from "../components/form-message";

describe("formMessage: the spec's quoted messages are keys, each language shows its own words", () => {
  afterAll(() => i18n.changeLanguage("pt"));

  it("pt: accented Portuguese", async () => {
    await i18n.changeLanguage("pt");
    expect(formMessage("Too Short!")).toBe("Muito curto!");
    expect(formMessage("Required")).toBe("Obrigatório");
    expect(formMessage("Obrigatorio")).toBe("Obrigatório");
    expect(formMessage("Invalid email")).toBe("E-mail inválido");
    expect(formMessage("Digite um número de telefone válido")).toBe("Digite um número de telefone válido");
  });

  it("en and es", async () => {
    await i18n.changeLanguage("en");
    expect(formMessage("Too Short!")).toBe("Too Short!");
    expect(formMessage("Obrigatorio")).toBe("Required");
    await i18n.changeLanguage("es");
    expect(formMessage("Required")).toBe("Obligatorio");
  });
});
