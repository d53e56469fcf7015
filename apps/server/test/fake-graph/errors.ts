/**
 * Graph API error answers as Meta documents them (Graph API "Handling errors": `{ error: { message,
 * type, code, error_subcode, is_transient, error_data, fbtrace_id } }`; WhatsApp Cloud API "Error
 * codes": the code's title in `message` as "(#code) Title", the explanation in `error_data.details`).
 * The fake answers a send with one of these when a test tells it to (FakeGraph.failNext).
 */
export interface GraphErrorAnswer {
  status: number;
  body: {
    error: {
      message: string;
      type: string;
      code: number;
      error_subcode?: number;
      is_transient?: boolean;
      error_data?: { messaging_product: "whatsapp"; details: string };
      fbtrace_id?: string;
    };
  };
}

const answer = (status: number, code: number, message: string, details: string, extra: { error_subcode?: number; is_transient?: boolean } = {}): GraphErrorAnswer => ({
  status,
  body: { error: { message, type: "OAuthException", code, ...extra, error_data: { messaging_product: "whatsapp", details } } },
});

export const GRAPH_ERRORS = {
  /** 130429 Rate limit hit: the number's throughput (80 messages/second by default). */
  rateLimit: answer(400, 130429, "(#130429) Rate limit hit", "Cloud API message throughput has been reached.", { error_subcode: 2494055 }),
  /** 131056 pair rate limit: too many messages from this number to the same number in a short time. */
  pairRateLimit: answer(
    400,
    131056,
    "(#131056) (Business Account, Consumer Account) pair rate limit hit",
    "Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.",
  ),
  /** 131000 Something went wrong: an unknown error on Meta's side. */
  somethingWentWrong: answer(500, 131000, "(#131000) Something went wrong", "Message failed to send due to an unknown error."),
  /** 131016 Service unavailable. */
  serviceUnavailable: answer(503, 131016, "(#131016) Service unavailable", "A service is temporarily unavailable."),
  /** 133004 Server temporarily unavailable. */
  serverUnavailable: answer(503, 133004, "(#133004) Server temporarily unavailable", "Server is temporarily unavailable."),
  /** A plain HTTP 500 with Graph's generic error (code 1, "An unknown error occurred"). */
  http500: answer(500, 1, "An unknown error occurred", "", {}),
  /** Graph code 2 "Temporary issue due to downtime", flagged is_transient: retry the same request later. */
  transient: answer(400, 2, "An unexpected error has occurred. Please retry your request later.", "", { is_transient: true }),
  /** 131026 Message undeliverable: the number is not on WhatsApp, or cannot receive this message. */
  undeliverable: answer(400, 131026, "(#131026) Message Undeliverable", "Message failed to send because the recipient is unable to receive it."),
  /** 131048 Spam rate limit hit: the number's sends are restricted (quality); retrying does not help. */
  spamRateLimit: answer(
    400,
    131048,
    "(#131048) Spam rate limit hit",
    "Message failed to send because there are restrictions on how many messages can be sent from this phone number.",
  ),
} as const satisfies Record<string, GraphErrorAnswer>;
