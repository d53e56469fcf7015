import type { Campaign } from "@atende/shared";
import type { CampaignRow, RecipientRow } from "./repository.js";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The only place that decides which campaign fields leave the server (no file path, no job id). */
export function presentCampaign(r: CampaignRow): Campaign {
  return {
    id: r.id,
    name: r.name,
    status: r.status,
    source: r.source,
    createdAt: r.created_at.toISOString(),
    costCenterId: r.cost_center_id,
    costCenterName: r.cost_center_name,
    businessId: r.business_id,
    queueId: r.queue_id,
    accountViolation: r.account_violation,
    errorMessage: r.error_message,
    fileName: r.file_name,
    encoding: r.encoding,
    countTotal: r.count_total,
    countInvalid: r.count_invalid,
    countExpired: r.count_expired,
    countProcessed: r.count_processed,
    countFailed: r.count_failed,
    countReplied: r.count_replied,
    countSent: r.count_sent,
    countDelivered: r.count_delivered,
    countRead: r.count_read,
    analysedRows: r.analysed_rows,
    scheduledAt: iso(r.scheduled_at),
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
    templateIds: r.template_ids,
    phoneIds: r.phone_ids,
  };
}

export function presentRecipient(r: RecipientRow) {
  return {
    id: Number(r.id),
    rowNumber: r.row_number,
    phone: r.phone,
    cpf: r.cpf,
    email: r.email,
    state: r.state,
    invalidReason: r.invalid_reason,
    errorCode: r.error_code,
    errorMessage: r.error_message,
  };
}
