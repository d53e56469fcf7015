import type { ErrorCode } from "@atende/shared";
import { AppError } from "./errors.js";

/**
 * Turns a policy answer from packages/shared/permissions (`authorizeTicket(actor, action, ticket)`
 * and the like: a catalogue code, or null when allowed) into the refusal.
 */
export function enforce(refusal: ErrorCode | null, message?: string, extra?: Record<string, unknown>): void {
  if (refusal) throw new AppError(refusal, message, extra);
}
