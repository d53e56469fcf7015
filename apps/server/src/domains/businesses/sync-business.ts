import { limitReached, lockPlanLimit } from "../../db/plan-limits.js";
import { channel, type BusinessSyncResult } from "@atende/shared";
import { GraphClient, GraphError, GraphUnavailable, type GraphTemplate } from "../../channels/cloud-api/graph-client.js";
import "../../channels/cloud-api/index.js";
import { numberStateFromGraph } from "../../channels/cloud-api/number-state.js";
import { channels } from "../../channels/manager.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { rooms } from "../../core/realtime.js";
import type { Sql } from "../../db/sql.js";
import * as officialRepo from "../official-whatsapp/repository.js";
import { presentWhatsapp } from "../whatsapp/presenter.js";
import * as whatsappRepo from "../whatsapp/repository.js";
import { presentBusiness } from "./presenter.js";
import * as repo from "./repository.js";

/** Distinct placeholders ({{1}}, {{name}}) in the header, body and button URLs of a template. */
export function templateVariables(t: GraphTemplate): number {
  const texts = (t.components ?? []).flatMap((c) => [c.text ?? "", ...(c.buttons ?? []).map((b) => b.url ?? "")]);
  const names = new Set<string>();
  for (const text of texts) for (const m of text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)) names.add(`${m[1]}`);
  return names.size;
}

function headerFormat(t: GraphTemplate): string {
  return (t.components ?? []).find((c) => c.type.toUpperCase() === "HEADER")?.format?.toUpperCase() ?? "";
}

/** A Graph failure becomes a 502 with Meta's message; anything else stays as it is. */
export function graphFailure(err: unknown): unknown {
  if (err instanceof GraphError || err instanceof GraphUnavailable) {
    return new AppError("ERR_WAPP_NOT_INITIALIZED", `Graph API: ${err.message}`, {}, 502);
  }
  return err;
}

async function insertOfficialConnection(sql: Sql, companyId: number, name: string, number: string): Promise<number> {
  const hasDefault = await sql.maybe("SELECT 1 FROM whatsapps WHERE company_id = $1 AND is_default", [companyId]);
  const row = await sql.one<{ id: number }>(
    `INSERT INTO whatsapps (company_id, name, provider, is_official, status, number, is_default)
     VALUES ($1, $2, 'official', true, 'CONNECTED', $3, $4) RETURNING id`,
    [companyId, name, number, !hasDefault],
  );
  return row.id;
}

/**
 * POST /businesses/{id}/sync: pulls the account's phone numbers and message templates from the Graph
 * API, after subscribing the app to the account's webhooks. Each phone number is one connection (provider official, CONNECTED, no QR) with its official
 * number row; new numbers beyond the plan's connection limit are skipped; numbers gone from the
 * account are marked DELETED. Templates are upserted by name and language.
 */
export async function syncBusiness(ctx: AppContext, companyId: number, businessId: number): Promise<BusinessSyncResult> {
  const secrets = await repo.findSecrets(ctx.sql, ctx.secrets, companyId, businessId);
  if (!secrets) throw new AppError("ERR_NOT_FOUND", "Business não encontrado");
  // the sandbox business (domains/campaign-templates/sandbox-business.ts) has no Meta account to sync
  if (await ctx.sql.maybe("SELECT 1 FROM businesses WHERE company_id = $1 AND id = $2 AND sandbox", [companyId, businessId])) {
    throw new AppError("ERR_SANDBOX_BUSINESS_NO_SYNC", "A BM de teste não é sincronizada com a Meta");
  }
  const client = new GraphClient(ctx.config.whatsappGraphUrl, secrets.access_token);
  const [phones, , templates, account] = await Promise.all([
    client.phoneNumbers(secrets.waba_id),
    // without the subscription Meta sends none of the account's webhooks: a refusal fails the sync
    client.subscribeApp(secrets.waba_id).then(() => undefined),
    client.templates(secrets.waba_id),
    // the account's review details are optional for a sync: without them the sync goes on
    client.account(secrets.waba_id).catch((err: unknown) => {
      ctx.log.warn({ err, companyId, businessId }, "could not read the WhatsApp Business account's details; syncing without them");
      return null;
    }),
  ]).catch((err: unknown) => {
    throw graphFailure(err);
  });

  const result = await ctx.sql.tx(async (sql) => {
    // The same lock as creating a connection: the plan limit holds against concurrent creations.
    await sql.exec("SELECT pg_advisory_xact_lock(727101, $1)", [companyId]);
    const existing = new Map((await officialRepo.numbersOfBusiness(sql, companyId, businessId)).map((n) => [n.phone_number_id, n]));
    const numbers = { total: phones.length, created: 0, updated: 0, skipped: 0, removed: 0 };
    const touched: { whatsappId: number; created: boolean }[] = [];
    for (const phone of phones) {
      const state = numberStateFromGraph(phone);
      const found = existing.get(phone.id);
      if (found) {
        await officialRepo.updateNumberState(sql, companyId, found.id, state);
        await sql.exec("UPDATE whatsapps SET number = $3, updated_at = now() WHERE company_id = $1 AND id = $2", [companyId, found.whatsapp_id, state.phone_number]);
        existing.delete(phone.id);
        numbers.updated++;
        touched.push({ whatsappId: found.whatsapp_id, created: false });
        continue;
      }
      const plan = await lockPlanLimit(sql, companyId, "connections");
      if (plan && limitReached(plan)) {
        numbers.skipped++;
        continue;
      }
      const name = (state.verified_name || state.display_phone_number || phone.id).slice(0, 50);
      const whatsappId = await insertOfficialConnection(sql, companyId, name, state.phone_number ?? "");
      await officialRepo.insertNumber(sql, companyId, { whatsappId, businessId, phoneNumberId: phone.id, ...state });
      numbers.created++;
      touched.push({ whatsappId, created: true });
    }
    for (const gone of existing.values()) {
      await officialRepo.updateNumberState(sql, companyId, gone.id, {
        operating_status: "DELETED",
        phone_status: "DISABLED",
        phone_status_reason: "Número removido da conta do WhatsApp Business",
      });
      numbers.removed++;
    }

    const tpl = { total: templates.length, created: 0, updated: 0, removed: 0 };
    for (const t of templates) {
      const row = await sql.one<{ inserted: boolean }>(
        `INSERT INTO whatsapp_templates (company_id, business_id, template_id, name, language, category, status, header_format, components, variable_count, rejected_reason, parameter_format)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12)
         ON CONFLICT (company_id, business_id, name, language) DO UPDATE SET template_id = EXCLUDED.template_id, category = EXCLUDED.category,
           status = EXCLUDED.status, header_format = EXCLUDED.header_format, components = EXCLUDED.components,
           variable_count = EXCLUDED.variable_count, rejected_reason = EXCLUDED.rejected_reason,
           parameter_format = EXCLUDED.parameter_format, updated_at = now()
         RETURNING (xmax = 0) AS inserted`,
        [
          companyId,
          businessId,
          t.id,
          t.name,
          t.language,
          t.category ?? "",
          t.status ?? "",
          headerFormat(t),
          JSON.stringify(t.components ?? []),
          templateVariables(t),
          t.rejected_reason && t.rejected_reason !== "NONE" ? t.rejected_reason : "",
          t.parameter_format?.toUpperCase() === "NAMED" ? "NAMED" : "POSITIONAL",
        ],
      );
      if (row.inserted) tpl.created++;
      else tpl.updated++;
    }
    tpl.removed = await sql.exec(
      `UPDATE whatsapp_templates SET status = 'DELETED', updated_at = now()
        WHERE company_id = $1 AND business_id = $2 AND status <> 'DELETED'
          AND NOT ((name, language) IN (SELECT * FROM unnest($3::text[], $4::text[])))`,
      [companyId, businessId, templates.map((t) => t.name), templates.map((t) => t.language)],
    );
    await repo.markSynced(sql, companyId, businessId, account?.account_review_status ?? null);
    return { numbers, tpl, touched };
  });

  for (const t of result.touched) {
    const row = await whatsappRepo.findWhatsapp(ctx.sql, companyId, t.whatsappId);
    if (!row) continue;
    ctx.realtime.emit(rooms.company(companyId), channel.whatsapp(companyId), { action: "update", whatsapp: presentWhatsapp(row) });
    // New numbers (and connected ones this process is not running yet) get their driver.
    if (row.status === "CONNECTED" && !channels(ctx).get(row.id)) {
      await channels(ctx)
        .resumeSoon(companyId, row.id, "official")
        .catch((err: unknown) => ctx.log.warn({ err, companyId, whatsappId: row.id }, "could not start a synced official number; the heartbeat tries again"));
    }
  }
  const fresh = (await repo.findBusiness(ctx.sql, companyId, businessId))!;
  return { phoneNumbers: result.numbers, templates: result.tpl, business: presentBusiness(fresh, ctx.config.publicUrl) };
}
