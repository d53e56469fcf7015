import { AppError } from "../core/errors.js";

/**
 * How long a refused-for-now send waits: `normal` backs off from the base delay; `pair` is the
 * provider's limit on messages to one recipient (the Cloud API allows about one message every
 * 6 seconds to the same number), which waits longer.
 */
export type RetryPace = "normal" | "pair";

/**
 * A send the provider refused for now (rate limit, a temporary error on its side, the network):
 * the same message may go out on a later attempt. The message names the provider's reason.
 */
export class RetryLaterError extends AppError {
  constructor(
    message: string,
    readonly pace: RetryPace = "normal",
  ) {
    super("ERR_SENDING_WAPP_MSG", message);
  }
}
