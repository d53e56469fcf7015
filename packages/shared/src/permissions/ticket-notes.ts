import type { ErrorCode } from "../errors.js";
import { isAdmin, type Actor } from "./roles.js";

export interface NoteRuleTarget {
  userId: number | null;
}

/** authorize(actor, action, note): a note is deleted by its author or an admin (seeing its ticket comes first). */
export function authorizeNote(actor: Pick<Actor, "id" | "profile" | "super">, action: "delete", note: NoteRuleTarget): ErrorCode | null {
  switch (action) {
    case "delete":
      return note.userId === actor.id || isAdmin(actor) ? null : "ERR_NO_PERMISSION";
  }
}
