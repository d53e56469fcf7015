import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { companyCreateInput, contactInput, queueInput, queueIntegrationInput, sandboxInboundInput, tagInput, userCreateInput, whatsappInput } from "../src/index.js";

/** The message a form shows for a field: the first issue at that path (react-hook-form's zod resolver). */
function firstMessage(schema: z.ZodType, value: unknown, field: string): string | undefined {
  const r = schema.safeParse(value);
  return r.success ? undefined : r.error.issues.find((i) => i.path[0] === field)?.message;
}

describe("an empty required field says it is required, not too short", () => {
  it("queue integration name (was 'Too Short!')", () => {
    expect(firstMessage(queueIntegrationInput, { type: "webhook", name: "", urlN8N: "https://x.example" }, "name")).toBe("Obrigatório");
    expect(firstMessage(queueIntegrationInput, { type: "webhook", name: "   ", urlN8N: "https://x.example" }, "name")).toBe("Obrigatório");
    expect(firstMessage(queueIntegrationInput, { type: "webhook", name: "a", urlN8N: "https://x.example" }, "name")).toBe("Too Short!");
  });
  it("user and company passwords (were 'Too Short!')", () => {
    expect(firstMessage(userCreateInput, { name: "Ana", email: "a@x.com", password: "" }, "password")).toBe("Required");
    expect(firstMessage(userCreateInput, { name: "Ana", email: "a@x.com", password: "abc" }, "password")).toBe("Too Short!");
    expect(firstMessage(companyCreateInput, { name: "Empresa", email: "a@x.com", planId: 1, password: "" }, "password")).toBe("Required");
  });
  it("the other forms' names", () => {
    expect(firstMessage(queueInput, { name: "", color: "#B71C1C" }, "name")).toBe("Required");
    expect(firstMessage(queueInput, { name: "Vendas", color: "" }, "color")).toBe("Required");
    expect(firstMessage(contactInput, { name: "", number: "5511999999999" }, "name")).toBe("Required");
    expect(firstMessage(whatsappInput, { name: "" }, "name")).toBe("Required");
    expect(firstMessage(tagInput, { name: "" }, "name")).toBe("Obrigatorio");
    expect(firstMessage(userCreateInput, { name: "", email: "a@x.com", password: "12345" }, "name")).toBe("Required");
    expect(firstMessage(sandboxInboundInput, { number: "" }, "number")).toBe("Required");
  });
});
