import { templateTypeOf, templateCsvColumns, templateVariableCount, validateCampaignTemplate, type CampaignPhone, type CampaignTemplate } from "@atende/shared";
import type { CampaignTemplateRow, PhoneRow } from "./repository.js";

/** A template as the campaign screens see it; validation from the one shared rule. */
export function presentCampaignTemplate(row: CampaignTemplateRow, phones: { id: number; displayNumber: string }[]): CampaignTemplate {
  const def = { status: row.status, headerFormat: row.header_format, components: row.components };
  const type = templateTypeOf(row.header_format) ?? { id: 0, name: row.header_format.toUpperCase() };
  return {
    id: row.id,
    name: row.name,
    category: row.category,
    status: row.status,
    type: type.name,
    body: row.components.find((c) => c.type.toUpperCase() === "BODY")?.text ?? "",
    variableCount: templateVariableCount(def),
    csvColumns: templateCsvColumns(def),
    language: row.language,
    PhoneNumbers: phones,
    validation: validateCampaignTemplate(def),
    Business: { id: row.business_id, name: row.business_name },
    TemplateType: { id: type.id, name: type.name },
  };
}

export function presentPhone(row: PhoneRow, remainingOutput?: number | null): CampaignPhone {
  return {
    id: row.id,
    businessId: row.business_id,
    displayNumber: row.display_number,
    verifiedName: row.verified_name,
    messagingLimit: row.messaging_limit,
    throughputPerSecond: row.throughput_per_second,
    ...(remainingOutput === undefined ? {} : { remainingOutput }),
  };
}
