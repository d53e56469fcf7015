import { z } from "zod";
import { OPT_OUT_CHANNELS, OPT_OUT_SOURCES } from "../opt-outs.js";

/**
 * The company's opt-out list, seen and corrected (docs/architecture.md "Opt-out list"): supervisors and
 * above list it, add an address or number by hand and remove one. Fed otherwise by SMS replies
 * (SAIR/PARAR/STOP), the e-mail one-click unsubscribe and hard bounces.
 */

/** 40 a page, as the SMS and e-mail campaign lists. */
export const OPT_OUT_PAGE_SIZE = 40;

export const OPT_OUT_MESSAGES = {
  addressRequired: "Informe o endereço ou número.",
  invalidEmail: "E-mail inválido.",
  invalidPhone: "Número de telefone inválido.",
} as const;

export const optOutChannel = z.enum(OPT_OUT_CHANNELS);

export const optOut = z.object({
  channel: optOutChannel,
  address: z.string().describe("the stored form: a lower-case e-mail address, or a phone's E.164 digits without '+'"),
  source: z.enum(OPT_OUT_SOURCES).describe("reply (SAIR/PARAR/STOP), unsubscribe (e-mail link), bounce (hard bounce) or admin (added here)"),
  reference: z.string().nullable().describe("what put it there: the campaign (sms-campaign:<id>, email-campaign:<id>) or the user (user:<id>)"),
  referenceName: z.string().nullable().describe("the name of what reference names (the user's name, the campaign's title); null when it no longer exists"),
  createdAt: z.string(),
});
export type OptOut = z.infer<typeof optOut>;

/** GET /opt-outs: newest first; `channel` and `search` (part of the address or number) optional. */
export const optOutQuery = z.object({
  channel: optOutChannel.optional(),
  search: z.string().trim().max(254).optional().default("").describe("part of the e-mail address or of the number's digits"),
  page: z.coerce.number().int().min(1).max(100000).optional().default(1),
});
export type OptOutQuery = z.input<typeof optOutQuery>;

export const optOutPage = z.object({ results: z.array(optOut), count: z.number() });
export type OptOutPage = z.infer<typeof optOutPage>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * POST /opt-outs: one address (e-mail) or number (sms, any written form: the server stores its E.164
 * digits and refuses one that cannot be a phone).
 */
export const optOutInput = z
  .object({
    channel: optOutChannel,
    address: z.string({ error: OPT_OUT_MESSAGES.addressRequired }).trim().min(1, OPT_OUT_MESSAGES.addressRequired).max(254),
  })
  .superRefine((v, ctx) => {
    if (!v.address) return;
    if (v.channel === "email" && !EMAIL.test(v.address)) ctx.addIssue({ code: "custom", path: ["address"], message: OPT_OUT_MESSAGES.invalidEmail });
    const digits = v.address.replace(/\D/g, "").length;
    if (v.channel === "sms" && (digits < 8 || digits > 15 || /[^\d\s()+.-]/.test(v.address)))
      ctx.addIssue({ code: "custom", path: ["address"], message: OPT_OUT_MESSAGES.invalidPhone });
  });
export type OptOutInput = z.input<typeof optOutInput>;

/** DELETE /opt-outs/{channel}/{address}: the address as listed (URL-encoded). */
export const optOutParams = z.object({ channel: optOutChannel, address: z.string().trim().min(1).max(254) });
