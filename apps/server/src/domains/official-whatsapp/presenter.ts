import type { OfficialWhatsapp, TemplateComponentDef, WhatsappTemplate } from "@atende/shared";
import type { OfficialNumberRow } from "./repository.js";

export function presentOfficialNumber(row: OfficialNumberRow): OfficialWhatsapp {
  return {
    id: row.id,
    whatsappId: row.whatsapp_id,
    name: row.whatsapp_name,
    status: row.whatsapp_status,
    phoneNumberId: row.phone_number_id,
    phoneNumber: row.phone_number,
    displayPhoneNumber: row.display_phone_number,
    verifiedName: row.verified_name,
    messagingLimit: row.messaging_limit,
    phoneStatus: row.phone_status,
    phoneStatusReason: row.phone_status_reason,
    businessId: row.business_id,
    businessName: row.business_name,
    accountStatus: row.account_status,
    accountViolation: row.account_violation,
    violationType: row.violation_type,
    operatingStatus: row.operating_status,
    qualityScore: row.quality_score,
    canSendMessage: row.can_send_message,
    healthErrors: row.health_errors,
    active: row.active,
    transferQueueId: row.transfer_queue_id,
    transferQueue:
      row.transfer_queue_id !== null && row.transfer_queue_name !== null
        ? { id: row.transfer_queue_id, name: row.transfer_queue_name, color: row.transfer_queue_color ?? "" }
        : null,
    throughputPerSecond: row.throughput_per_second,
    updatedAt: row.updated_at.toISOString(),
  };
}

export interface TemplateRow {
  id: number;
  business_id: number;
  template_id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  header_format: string;
  components: TemplateComponentDef[];
  parameter_format: string;
  variable_count: number;
  rejected_reason: string;
  updated_at: Date;
}

export const templateBody = (row: Pick<TemplateRow, "components">) => row.components.find((c) => c.type.toUpperCase() === "BODY")?.text ?? "";

export const templateParameterFormat = (row: Pick<TemplateRow, "parameter_format">) => (row.parameter_format === "NAMED" ? "NAMED" : "POSITIONAL");

export function presentTemplate(row: TemplateRow): WhatsappTemplate {
  return {
    id: row.id,
    businessId: row.business_id,
    templateId: row.template_id,
    name: row.name,
    language: row.language,
    category: row.category,
    status: row.status,
    headerFormat: row.header_format,
    parameterFormat: templateParameterFormat(row),
    body: templateBody(row),
    components: row.components,
    variableCount: row.variable_count,
    rejectedReason: row.rejected_reason,
    updatedAt: row.updated_at.toISOString(),
  };
}
