import { channel, type SandboxBusinessResult } from "@atende/shared";
import { channels } from "../../channels/manager.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { rooms } from "../../core/realtime.js";
import { limitReached, lockPlanLimit } from "../../db/plan-limits.js";
import type { Sql } from "../../db/sql.js";
import { presentWhatsapp } from "../whatsapp/presenter.js";
import * as whatsappRepo from "../whatsapp/repository.js";

/**
 * The built-in sandbox business ("BM de teste"): lets a newcomer run a whole campaign with no Meta
 * account. Its row has `sandbox = true` and no Graph secrets (the sync refuses it and webhooks never
 * match it); its two numbers are official_numbers rows whose connections are sandbox connections
 * (provider 'sandbox': tickets and replies work as on any sandbox connection, the test phone page
 * shows what was sent); its templates are seeded APPROVED, one of each category and type.
 */
export const SANDBOX_BUSINESS_NAME = "BM de teste (sandbox)";
const SANDBOX_WABA_ID = "sandbox";
const SANDBOX_NUMBERS = 2;

interface SeedTemplate {
  name: string;
  category: "MARKETING" | "UTILITY" | "AUTHENTICATION";
  headerFormat: "" | "IMAGE";
  components: Record<string, unknown>[];
}

/** In Meta's message_templates shape, so every consumer reads them like synced ones. */
export const SANDBOX_TEMPLATES: SeedTemplate[] = [
  {
    name: "novidades_loja",
    category: "MARKETING",
    headerFormat: "",
    components: [
      { type: "BODY", text: "Olá! Chegaram novidades na nossa loja. Responda esta mensagem para falar com a gente." },
      { type: "FOOTER", text: "Atende - mensagem de teste" },
      { type: "BUTTONS", buttons: [{ type: "QUICK_REPLY", text: "Quero saber mais" }] },
    ],
  },
  {
    name: "pedido_confirmado",
    category: "UTILITY",
    headerFormat: "",
    components: [{ type: "BODY", text: "Seu pedido {{1}} foi confirmado e já está em preparação.", example: { body_text: [["12345"]] } }],
  },
  {
    name: "entrega_agendada",
    category: "UTILITY",
    headerFormat: "",
    components: [{ type: "BODY", text: "Olá {{1}}, sua entrega foi agendada para {{2}}.", example: { body_text: [["Maria", "25/11"]] } }],
  },
  {
    name: "codigo_verificacao",
    category: "AUTHENTICATION",
    headerFormat: "",
    components: [{ type: "BODY", text: "{{1}} é o seu código de verificação. Não o compartilhe com ninguém.", example: { body_text: [["123456"]] } }],
  },
  {
    name: "oferta_imagem",
    category: "MARKETING",
    headerFormat: "IMAGE",
    components: [
      { type: "HEADER", format: "IMAGE", example: { header_handle: ["https://example.com/oferta.jpg"] } },
      { type: "BODY", text: "Oi {{1}}! Confira as ofertas desta semana na imagem acima.", example: { body_text: [["Maria"]] } },
    ],
  },
];

/** Distinct placeholders of the header and body (the synced variable_count). */
function variableCount(components: Record<string, unknown>[]): number {
  const names = new Set<string>();
  for (const c of components) for (const m of String(c.text ?? "").matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)) names.add(`${m[1]}`);
  return names.size;
}

/** The sandbox driver's own number for a connection (SandboxDriver.phoneNumber). */
const sandboxDigits = (whatsappId: number) => `5500000${String(whatsappId).padStart(6, "0")}`;

async function seedTemplates(sql: Sql, companyId: number, businessId: number): Promise<void> {
  for (const t of SANDBOX_TEMPLATES) {
    await sql.exec(
      `INSERT INTO whatsapp_templates (company_id, business_id, template_id, name, language, category, status, header_format, components, variable_count, parameter_format)
       VALUES ($1, $2, $3, $4, 'pt_BR', $5, 'APPROVED', $6, $7::jsonb, $8, 'POSITIONAL')
       ON CONFLICT (company_id, business_id, name, language) DO NOTHING`,
      [companyId, businessId, `sandbox-${t.name}`, t.name, t.category, t.headerFormat, JSON.stringify(t.components), variableCount(t.components)],
    );
  }
}

/**
 * Creates the company's sandbox business once (idempotent: a second call returns the same one and
 * re-seeds any template removed). Refused when the server does not allow sandbox connections, or when
 * the plan's connection limit leaves no room for its two numbers.
 */
export async function createSandboxBusiness(ctx: AppContext, companyId: number): Promise<SandboxBusinessResult> {
  if (!ctx.config.enableSandbox) throw new AppError("ERR_SANDBOX_DISABLED", "Conexões sandbox estão desativadas neste servidor");
  const result = await ctx.sql.tx(async (sql) => {
    // the company row lock of the plan limit also serialises two concurrent creations
    const plan = await lockPlanLimit(sql, companyId, "connections");
    const existing = await sql.maybe<{ id: number; name: string }>("SELECT id, name FROM businesses WHERE company_id = $1 AND sandbox", [companyId]);
    if (existing) {
      await seedTemplates(sql, companyId, existing.id);
      return { id: existing.id, name: existing.name, created: false, whatsappIds: [] as number[] };
    }
    if (plan && plan.limit > 0 && plan.used + SANDBOX_NUMBERS > plan.limit) {
      throw new AppError("ERR_PLAN_LIMIT_REACHED", `O plano permite ${plan.limit} conexões; a BM de teste precisa de ${SANDBOX_NUMBERS}`);
    }
    if (plan && limitReached(plan)) throw new AppError("ERR_PLAN_LIMIT_REACHED", `O plano permite ${plan.limit} conexões`);
    const business = await sql.one<{ id: number }>(
      `INSERT INTO businesses (company_id, name, waba_id, access_token, app_secret, verify_token, account_status, sandbox)
       VALUES ($1, $2, $3, '', '', '', 'APPROVED', true) RETURNING id`,
      [companyId, SANDBOX_BUSINESS_NAME, SANDBOX_WABA_ID],
    );
    const hasDefault = await sql.maybe("SELECT 1 FROM whatsapps WHERE company_id = $1 AND is_default", [companyId]);
    const whatsappIds: number[] = [];
    for (let i = 1; i <= SANDBOX_NUMBERS; i++) {
      const w = await sql.one<{ id: number }>(
        `INSERT INTO whatsapps (company_id, name, provider, is_official, status, is_default)
         VALUES ($1, $2, 'sandbox', false, 'DISCONNECTED', $3) RETURNING id`,
        [companyId, `Sandbox ${i}`, !hasDefault && i === 1],
      );
      const digits = sandboxDigits(w.id);
      await sql.exec("UPDATE whatsapps SET number = $3 WHERE company_id = $1 AND id = $2", [companyId, w.id, digits]);
      await sql.exec(
        `INSERT INTO official_numbers (company_id, whatsapp_id, business_id, phone_number_id, phone_number, display_phone_number, verified_name,
                                       messaging_limit, phone_status, account_status, operating_status, quality_score, can_send_message)
         VALUES ($1, $2, $3, $4, $5, $6, 'Atende Sandbox', 'TIER_1K', 'ACTIVE', 'APPROVED', 'CONNECTED', 'GREEN', 'AVAILABLE')`,
        [companyId, w.id, business.id, `sandbox-${w.id}`, digits, `+${digits}`],
      );
      whatsappIds.push(w.id);
    }
    await seedTemplates(sql, companyId, business.id);
    return { id: business.id, name: SANDBOX_BUSINESS_NAME, created: true, whatsappIds };
  });
  // the sandbox sessions connect at once (no QR code to scan), like a resumed session
  for (const whatsappId of result.whatsappIds) {
    await channels(ctx)
      .start(companyId, whatsappId, "sandbox", true)
      .catch((err: unknown) => ctx.log.warn({ err, companyId, whatsappId }, "could not start a sandbox number of the test business; its Start button tries again"));
    const row = await whatsappRepo.findWhatsapp(ctx.sql, companyId, whatsappId);
    if (row) ctx.realtime.emit(rooms.company(companyId), channel.whatsapp(companyId), { action: "update", whatsapp: presentWhatsapp(row) });
  }
  const counts = await ctx.sql.one<{ numbers: number; templates: number }>(
    `SELECT (SELECT count(*)::int FROM official_numbers WHERE company_id = $1 AND business_id = $2) AS numbers,
            (SELECT count(*)::int FROM whatsapp_templates WHERE company_id = $1 AND business_id = $2) AS templates`,
    [companyId, result.id],
  );
  return { id: result.id, name: result.name, created: result.created, numbers: counts.numbers, templates: counts.templates };
}

/**
 * First-start dev seed (main.ts, only where sandbox connections are allowed): the platform company
 * gets the sandbox business, so `npm start` alone is enough to try a whole campaign. A failure is
 * logged and the server starts anyway (the button on the numbers page creates it later).
 */
export async function seedSandboxBusiness(ctx: AppContext): Promise<void> {
  if (!ctx.config.enableSandbox) return;
  const platform = await ctx.sql.maybe<{ id: number }>("SELECT id FROM companies WHERE is_platform");
  if (!platform) return;
  try {
    const r = await createSandboxBusiness(ctx, platform.id);
    ctx.log.info({ businessId: r.id, numbers: r.numbers, templates: r.templates }, "seeded the sandbox business (BM de teste) of the platform company");
  } catch (err) {
    ctx.log.error({ err, companyId: platform.id }, "could not seed the sandbox business; create it from the official numbers page");
  }
}
