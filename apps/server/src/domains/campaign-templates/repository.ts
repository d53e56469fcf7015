import { TEMPLATE_TYPES } from "@atende/shared";
import type { Sql } from "../../db/sql.js";

export interface CampaignTemplateRow {
  id: number;
  name: string;
  language: string;
  category: string;
  status: string;
  header_format: string;
  components: { type: string; format?: string; text?: string; buttons?: { type: string; text?: string; url?: string }[] }[];
  business_id: number;
  business_name: string;
}

export interface TemplateFilters {
  id?: number;
  businessId?: number;
  /** Approved by Meta (and so not deleted). */
  active?: boolean;
  name?: string;
  templateTypeId?: number;
}

/** The header formats of a catalogue type: TEXT is also "no header". Unknown ids match nothing. */
function formatsOfType(typeId: number): string[] {
  const type = TEMPLATE_TYPES.find((t) => t.id === typeId);
  if (!type) return [];
  return type.name === "TEXT" ? ["", "TEXT"] : [type.name];
}

export function listTemplates(sql: Sql, companyId: number, f: TemplateFilters) {
  const params: unknown[] = [companyId];
  const where = ["t.company_id = $1"];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (f.id !== undefined) add((p) => `t.id = ${p}`, f.id);
  if (f.businessId !== undefined) add((p) => `t.business_id = ${p}`, f.businessId);
  if (f.active === true) where.push("upper(t.status) = 'APPROVED'");
  if (f.active === false) where.push("upper(t.status) <> 'APPROVED'");
  if (f.name?.trim()) add((p) => `t.name ILIKE ${p}`, `%${f.name.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (f.templateTypeId !== undefined) add((p) => `upper(t.header_format) = ANY(${p}::text[])`, formatsOfType(f.templateTypeId));
  return sql.many<CampaignTemplateRow>(
    `SELECT t.id, t.name, t.language, t.category, t.status, t.header_format, t.components, t.business_id, b.name AS business_name
       FROM whatsapp_templates t JOIN businesses b ON b.company_id = t.company_id AND b.id = t.business_id
      WHERE ${where.join(" AND ")}
      ORDER BY t.name, t.language, t.id`,
    params,
  );
}

export interface PhoneRow {
  id: number;
  business_id: number;
  display_number: string;
  verified_name: string;
  messaging_limit: string;
  throughput_per_second: number;
}

/** Numbers that can send: active on this platform and not disabled by Meta. */
const ACTIVE = "o.active AND o.phone_status = 'ACTIVE'";
const PHONE_COLUMNS = `o.id, o.business_id, COALESCE(NULLIF(o.display_phone_number, ''), o.phone_number) AS display_number, o.verified_name,
  o.messaging_limit, o.throughput_per_second`;

export function activePhones(sql: Sql, companyId: number, businessIds: number[] | null) {
  return sql.many<PhoneRow>(
    `SELECT ${PHONE_COLUMNS} FROM official_numbers o
      WHERE o.company_id = $1 AND ($2::int[] IS NULL OR o.business_id = ANY($2::int[])) AND ${ACTIVE}
      ORDER BY o.business_id, display_number, o.id`,
    [companyId, businessIds],
  );
}

export function findPhone(sql: Sql, companyId: number, id: number) {
  return sql.maybe<PhoneRow>(`SELECT ${PHONE_COLUMNS} FROM official_numbers o WHERE o.company_id = $1 AND o.id = $2`, [companyId, id]);
}

export function setThroughput(sql: Sql, companyId: number, id: number, perSecond: number) {
  return sql.exec("UPDATE official_numbers SET throughput_per_second = $3, updated_at = now() WHERE company_id = $1 AND id = $2", [companyId, id, perSecond]);
}

/**
 * Per business: every number's messaging tier (the portfolio's limit is the highest) and the unique
 * phones reached by business-initiated sends in the last 24 hours.
 */
export function portfolioUsage(sql: Sql, companyId: number, businessIds: number[]) {
  return sql.many<{ business_id: number; tiers: string[]; used: number }>(
    `SELECT b.id AS business_id,
            COALESCE((SELECT array_agg(o.messaging_limit) FROM official_numbers o
                       WHERE o.company_id = b.company_id AND o.business_id = b.id AND o.operating_status <> 'DELETED'), '{}') AS tiers,
            (SELECT count(DISTINCT s.phone)::int FROM business_initiated_sends s
              WHERE s.business_id = b.id AND s.company_id = b.company_id AND s.sent_at > now() - interval '24 hours') AS used
       FROM businesses b WHERE b.company_id = $1 AND b.id = ANY($2::int[])`,
    [companyId, businessIds],
  );
}
