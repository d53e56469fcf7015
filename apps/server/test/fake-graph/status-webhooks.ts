/**
 * Meta's side of message statuses: after a send is accepted, Meta posts `messages` webhooks whose
 * `statuses` report sent, delivered and read (or failed with `errors`), each echoing the send's
 * `biz_opaque_callback_data`. Shapes from Meta's references, not from what our code sends:
 * - "Status messages webhook" (developers.facebook.com/docs/whatsapp/cloud-api/webhooks/payload-examples#message-status-updates):
 *   entry[].changes[] with field "messages", value { messaging_product, metadata { display_phone_number,
 *   phone_number_id }, statuses: [{ id (wamid), status, timestamp (seconds, string), recipient_id,
 *   biz_opaque_callback_data, conversation, pricing, errors? }] }.
 * - "Send message templates": "biz_opaque_callback_data: an arbitrary string, useful for tracking;
 *   ... included in the status webhooks of the message".
 * - failed statuses carry errors [{ code, title, message, error_data: { details } }].
 * Statuses arriving close together are posted in one delivery (Meta batches them too), signed with
 * X-Hub-Signature-256 like every delivery of the fake.
 */
export type FakeStatus = "sent" | "delivered" | "read" | "failed";

export interface StatusPlan {
  /** The app's callback URL (…/api/webhooks/whatsapp/:businessId). */
  callbackUrl: string;
  /** Time from the send to the first status, and between the next ones. */
  stepMs?: number;
  /** Statuses per delivery at most. */
  perDelivery?: number;
}

export interface QueuedStatus {
  phoneNumberId: string;
  displayPhoneNumber: string;
  wamid: string;
  to: string;
  status: FakeStatus;
  callbackData?: string;
  error?: { code: number; title: string; details: string };
}

export function statusObject(s: QueuedStatus): Record<string, unknown> {
  return {
    id: s.wamid,
    status: s.status,
    timestamp: String(Math.floor(Date.now() / 1000)),
    recipient_id: s.to,
    ...(s.callbackData !== undefined ? { biz_opaque_callback_data: s.callbackData } : {}),
    ...(s.status === "sent" || s.status === "delivered"
      ? {
          conversation: { id: "b1a6d3c2e5f4a7b8c9d0e1f2a3b4c5d6", origin: { type: "marketing" } },
          pricing: { billable: true, pricing_model: "PMP", category: "marketing", type: "regular" },
        }
      : {}),
    ...(s.error ? { errors: [{ code: s.error.code, title: s.error.title, message: s.error.title, error_data: { details: s.error.details } }] } : {}),
  };
}

export function statusDelivery(wabaId: string, batch: QueuedStatus[]) {
  const first = batch[0]!;
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: wabaId,
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: first.displayPhoneNumber.replace(/\D/g, ""), phone_number_id: first.phoneNumberId },
              statuses: batch.map(statusObject),
            },
          },
        ],
      },
    ],
  };
}
