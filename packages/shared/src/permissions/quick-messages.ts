import type { ErrorCode } from "../errors.js";
import { isAdmin, type Actor } from "./roles.js";

export interface QuickMessageRuleTarget {
  userId: number | null;
}

/**
 * authorize(actor, action, quickMessage): the author edits (and deletes, and attaches media to) a
 * quick message; an admin edits any the admin can see (the company-wide ones).
 */
export function authorizeQuickMessage(
  actor: Pick<Actor, "id" | "profile" | "super">,
  action: "edit",
  quickMessage: QuickMessageRuleTarget,
): ErrorCode | null {
  switch (action) {
    case "edit":
      return quickMessage.userId === actor.id || isAdmin(actor) ? null : "ERR_NO_PERMISSION";
  }
}
