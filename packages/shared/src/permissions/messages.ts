import type { ErrorCode } from "../errors.js";
import type { Actor } from "./roles.js";

export interface MessageRuleTarget {
  fromMe: boolean;
  userId: number | null;
}

/** authorize(actor, action, message): messages may be deleted only by the user who sent them (1-core §6). */
export function authorizeMessage(actor: Pick<Actor, "id">, action: "delete", message: MessageRuleTarget): ErrorCode | null {
  switch (action) {
    case "delete":
      return message.fromMe && message.userId === actor.id ? null : "ERR_NO_PERMISSION";
  }
}
