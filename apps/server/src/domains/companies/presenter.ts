import type { Company, Setting } from "@atende/shared";
import { presentPlan } from "../plans/presenter.js";
import type { CompanyRow } from "./repository.js";

export function presentCompany(row: CompanyRow, settings?: Setting[]): Company {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    planId: row.plan_id,
    status: row.status,
    campaignsEnabled: row.campaigns_enabled,
    dueDate: row.due_date,
    recurrence: row.recurrence,
    biUrl: row.bi_url,
    billingName: row.billing_name,
    document: row.document,
    createdAt: row.created_at.toISOString(),
    plan: row.plan ? presentPlan(row.plan) : null,
    schedules: row.schedules,
    timeZone: row.time_zone,
    ...(settings ? { settings } : {}),
  };
}
