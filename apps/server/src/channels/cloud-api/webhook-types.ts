/** The documented shapes of Cloud API webhooks (object "whatsapp_business_account"). */

export interface WebhookPayload {
  object?: string;
  entry?: WebhookEntry[];
}

export interface WebhookEntry {
  /** The WhatsApp Business Account id. */
  id?: string;
  changes?: WebhookChange[];
}

export interface WebhookChange {
  field?: string;
  value?: Record<string, unknown>;
}

export interface CloudMedia {
  id: string;
  mime_type?: string;
  sha256?: string;
  caption?: string;
  filename?: string;
  voice?: boolean;
}

export interface CloudContactCard {
  name?: { formatted_name?: string; first_name?: string; last_name?: string };
  phones?: { phone?: string; wa_id?: string; type?: string }[];
  emails?: { email?: string }[];
  org?: { company?: string };
}

export interface CloudMessage {
  /** The sender's phone number; omitted for a user with a username whose number Meta does not share. */
  from?: string;
  /** The sender's business-scoped user id (BSUID). */
  from_user_id?: string;
  id: string;
  timestamp?: string;
  type: string;
  context?: { from?: string; id?: string };
  text?: { body?: string };
  image?: CloudMedia;
  video?: CloudMedia;
  audio?: CloudMedia;
  document?: CloudMedia;
  sticker?: CloudMedia;
  location?: { latitude?: number; longitude?: number; name?: string; address?: string; url?: string };
  contacts?: CloudContactCard[];
  interactive?: {
    type?: string;
    button_reply?: { id?: string; title?: string };
    list_reply?: { id?: string; title?: string; description?: string };
    nfm_reply?: { name?: string; body?: string; response_json?: string };
  };
  button?: { text?: string; payload?: string };
  reaction?: { message_id?: string; emoji?: string };
  order?: { catalog_id?: string; text?: string; product_items?: CloudOrderItem[] };
  /**
   * `user_changed_number`: `wa_id` is the new number (older versions: `new_wa_id`), `user_id` the new
   * BSUID and `previous_user_id` the old one; `user_changed_user_id`: only the BSUIDs.
   */
  system?: { body?: string; type?: string; wa_id?: string; new_wa_id?: string; user_id?: string; previous_user_id?: string };
  /** Meta's description of an undeliverable type (`type: "unsupported"`). */
  unsupported?: { type?: string };
  errors?: CloudError[];
  /** Click-to-WhatsApp ad the message came from. */
  referral?: Record<string, unknown>;
  /** The contact edited an earlier message (coexistence numbers). */
  edit?: { original_message_id?: string; message?: Partial<CloudMessage> };
  /** The contact deleted an earlier message for everyone (coexistence numbers). */
  revoke?: { original_message_id?: string };
}

export interface CloudOrderItem {
  product_retailer_id?: string;
  quantity?: number;
  item_price?: number;
  currency?: string;
}

export interface CloudError {
  code?: number;
  title?: string;
  message?: string;
  error_data?: { details?: string };
}

export interface CloudStatus {
  id: string;
  status: string;
  timestamp?: string;
  recipient_id?: string;
  /** Echoed from the send request (campaign sends put the recipient row id there). */
  biz_opaque_callback_data?: string;
  errors?: CloudError[];
}

export interface MessagesValue {
  messaging_product?: string;
  metadata?: { display_phone_number?: string; phone_number_id?: string };
  contacts?: { profile?: { name?: string; username?: string }; wa_id?: string; user_id?: string }[];
  messages?: CloudMessage[];
  statuses?: CloudStatus[];
  errors?: unknown[];
}
