import { OPT_OUT_MESSAGES, OPT_OUT_PAGE_SIZE, optOutAddressKey, type OptOut, type OptOutChannel, type OptOutPage } from "@atende/shared";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { normalizePhone } from "../../core/phone.js";
import { recordAudit } from "../audit-log/service.js";
import * as repo from "./repository.js";

const present = (r: repo.OptOutRow): OptOut => ({
  channel: r.channel,
  address: r.address,
  source: r.source,
  reference: r.reference,
  referenceName: r.reference_name,
  createdAt: r.created_at.toISOString(),
});

const notFound = () => new AppError("ERR_OPT_OUT_NOT_FOUND", "Endereço ou número não encontrado na lista de descadastros.");

/** The stored key of what a user typed: a phone in its E.164 digits (as campaigns store numbers), a lower-case e-mail. */
function keyOf(channel: OptOutChannel, address: string): string | null {
  if (channel === "email") return optOutAddressKey("email", address);
  return normalizePhone(address);
}

export async function pageOptOuts(ctx: AppContext, companyId: number, q: { channel?: OptOutChannel; search: string; page: number }): Promise<OptOutPage> {
  const { rows, count } = await repo.pageOptOuts(ctx.sql, companyId, q, OPT_OUT_PAGE_SIZE, (q.page - 1) * OPT_OUT_PAGE_SIZE);
  return { results: rows.map(present), count };
}

/** Adds one address or number by hand (source admin, reference user:<id>); recorded in the audit log. */
export async function addOptOut(ctx: AppContext, actor: RequestActor, input: { channel: OptOutChannel; address: string }, ip: string): Promise<OptOut> {
  const key = keyOf(input.channel, input.address);
  if (!key) throw new AppError("ERR_VALIDATION", OPT_OUT_MESSAGES.invalidPhone, { fields: { address: OPT_OUT_MESSAGES.invalidPhone } });
  return ctx.sql.tx(async (sql) => {
    if (!(await repo.addOptOut(sql, actor.companyId, input.channel, key, "admin", `user:${actor.id}`)))
      throw new AppError("ERR_OPT_OUT_DUPLICATE", "Este endereço ou número já está na lista de descadastros.", { fields: { address: "Já está na lista." } });
    await recordAudit(sql, {
      companyId: actor.companyId,
      action: "opt_out.added",
      actor: { id: actor.id, name: actor.name },
      ip,
      details: { channel: input.channel, address: key },
    });
    const row = await repo.findOptOut(sql, actor.companyId, input.channel, key);
    if (!row) throw notFound();
    return present(row);
  });
}

/**
 * Removes one entry: later campaigns write to that address again (their analysis and the dispatcher's
 * check read the list). Recorded in the audit log with what the entry said (source, reference).
 */
export async function removeOptOut(ctx: AppContext, actor: RequestActor, channel: OptOutChannel, address: string, ip: string): Promise<void> {
  // the listed form, else what a user may have typed for it
  const keys = [...new Set([optOutAddressKey(channel, address), keyOf(channel, address)].filter((k): k is string => !!k))];
  await ctx.sql.tx(async (sql) => {
    for (const key of keys) {
      const row = await repo.findOptOut(sql, actor.companyId, channel, key);
      if (!row || !(await repo.removeOptOut(sql, actor.companyId, channel, key))) continue;
      await recordAudit(sql, {
        companyId: actor.companyId,
        action: "opt_out.removed",
        actor: { id: actor.id, name: actor.name },
        ip,
        details: { channel, address: key, source: row.source, reference: row.reference, listedAt: row.created_at.toISOString() },
      });
      return;
    }
    throw notFound();
  });
}
