import type { Profile } from "../enums.js";
import type { ErrorCode } from "../errors.js";
import { isAdmin, type Actor } from "./roles.js";

export interface UserTarget {
  id: number;
  companyId: number;
  profile: Profile;
  super: boolean;
}

/**
 * The fields an edit changes: a key is present only when its value differs from the target's
 * (an unchanged form field is not a change).
 */
export interface UserChange {
  profile?: Profile;
  queueIds?: number[];
  whatsappId?: number | null;
  allTicket?: "enable" | "disable";
}

/** Who may open the users page and manage users (spec 2-administration §6). */
export function canManageUsers(actor: Pick<Actor, "profile" | "super">): boolean {
  return isAdmin(actor);
}

/** Super only: delete, bulk delete and bulk select. */
export function canDeleteUsers(actor: Pick<Actor, "super">): boolean {
  return actor.super;
}

/**
 * Protections of spec 1-core §6 for editing a user. Returns the error code that refuses the edit,
 * or null when it is allowed. Everyone may edit their own name, e-mail, password and default
 * connection; profile, queues and allTicket belong to admins (user-modal:editProfile/editQueues).
 */
export function userEditRefusal(actor: Actor, target: UserTarget, change: UserChange): ErrorCode | null {
  const self = actor.id === target.id;
  const profileChange = change.profile !== undefined && change.profile !== target.profile;
  if (target.super && !actor.super) return "ERR_CANNOT_EDIT_SUPER_USER";
  if (target.super && profileChange) {
    return change.profile === "user"
      ? "ERR_CANNOT_CHANGE_SUPER_ADMIN_PROFILE_TO_USER"
      : "ERR_CANNOT_CHANGE_SUPER_ADMIN_PROFILE_TO_SUPERVISOR";
  }
  if (self) {
    if (profileChange) return "ERR_CANNOT_EDIT_OR_DEMOTE_OWN_ACCOUNT";
    if (!canManageUsers(actor) && (change.queueIds !== undefined || change.allTicket !== undefined)) return "ERR_NO_PERMISSION";
    return null;
  }
  if (!canManageUsers(actor)) return "ERR_NO_PERMISSION";
  if (!actor.super && target.profile === "admin") return "ERR_CANNOT_EDIT_USER_CANNOT_EDIT_ADMIN";
  return null;
}

/** Delete (and each row of a bulk delete): super only; never oneself nor a super user. */
export function userDeleteRefusal(actor: Actor, target: UserTarget): ErrorCode | null {
  if (!canDeleteUsers(actor)) return "ERR_NO_USER_DELETE";
  if (actor.id === target.id) return "ERR_CANNOT_EDIT_OR_DELETE_OWN_ADMIN_ACCOUNT";
  if (target.super) return "ERR_CANNOT_EDIT_SUPER_USER";
  return null;
}
