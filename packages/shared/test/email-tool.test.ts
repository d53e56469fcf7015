import { describe, expect, it } from "vitest";
import { canVisit, invalidRecipients, sendEmailInput, splitRecipients, type Actor, type PlanFlags } from "../src/index.js";

describe("the simple e-mail tool's recipients", () => {
  it("splits on commas, trims, skips blanks and names the invalid addresses in order", () => {
    const list = splitRecipients(" ana@cliente.test,, bruno@cliente.test ,nao-e-email, @x ,");
    expect(list).toEqual(["ana@cliente.test", "bruno@cliente.test", "nao-e-email", "@x"]);
    expect(invalidRecipients(list)).toEqual(["nao-e-email", "@x"]);
    expect(invalidRecipients(["a@b.test"])).toEqual([]);
  });

  it("accepts the spec's body and drops tokenSenha", () => {
    const parsed = sendEmailInput.parse({ email: " a@b.test ", tokenSenha: "secreto", assunto: "Oi", mensagem: "Olá" });
    expect(parsed).toEqual({ email: "a@b.test", tokenSenha: undefined, assunto: "Oi", mensagem: "Olá" });
    expect(JSON.stringify(parsed)).not.toContain("secreto");
  });
});

describe("who may use it", () => {
  const flags = { useCampaigns: true } as PlanFlags;
  const actor = (profile: Actor["profile"]): Actor => ({ id: 1, companyId: 1, profile, super: false });
  it("supervisors and administrators of a plan with campaigns", () => {
    for (const path of ["/Email", "/EmailLis"]) {
      expect(canVisit(actor("supervisor"), flags, path)).toBe(true);
      expect(canVisit(actor("admin"), flags, path)).toBe(true);
      expect(canVisit(actor("user"), flags, path)).toBe(false);
      expect(canVisit(actor("admin"), { ...flags, useCampaigns: false }, path)).toBe(false);
    }
  });
});
