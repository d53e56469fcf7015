import type { Profile } from "../enums.js";
import type { ErrorCode } from "../errors.js";
import { atLeast, type Actor } from "./roles.js";

export interface UserTarget {
  id: number;
  companyId: number;
  profile: Profile;
  super: boolean;
}

export interface UserChange {
  profile?: Profile;
  queueIds?: number[];
}

/** Who may open the users page and manage users (spec 2-administration §6). */
export function canManageUsers(actor: Pick<Actor, "profile" | "super">): boolean {
  return actor.super || actor.profile === "admin";
}

/** Super only: delete, bulk delete and bulk select. */
export function canDeleteUsers(actor: Pick<Actor, "super">): boolean {
  return actor.super;
}

/**
 * Protections of spec 1-core §6 for editing a user. Returns the error code that refuses the edit,
 * or null when it is allowed.
 */
export function userEditRefusal(actor: Actor, target: UserTarget, change: UserChange): ErrorCode | null {
  const self = actor.id === target.id;
  if (target.super && !actor.super) return "ERR_CANNOT_EDIT_SUPER_USER";
  if (target.super && change.profile && change.profile !== "admin") {
    return change.profile === "user"
      ? "ERR_CANNOT_CHANGE_SUPER_ADMIN_PROFILE_TO_USER"
      : "ERR_CANNOT_CHANGE_SUPER_ADMIN_PROFILE_TO_SUPERVISOR";
  }
  if (self) {
    if (change.profile && change.profile !== actor.profile) return "ERR_CANNOT_EDIT_OR_DEMOTE_OWN_ACCOUNT";
    return null;
  }
  if (!canManageUsers(actor)) return "ERR_NO_PERMISSION";
  if (!actor.super && target.profile === "admin") return "ERR_CANNOT_EDIT_USER_CANNOT_EDIT_ADMIN";
  if (change.profile && !atLeast(actor, "admin")) return "ERR_CANNOT_EDIT_SUPER_USER_PROFILE";
  return null;
}

export function userDeleteRefusal(actor: Actor, target: UserTarget): ErrorCode | null {
  if (!canDeleteUsers(actor)) return "ERR_NO_USER_DELETE";
  if (target.super) return "ERR_CANNOT_EDIT_SUPER_USER";
  if (actor.id === target.id) return "ERR_CANNOT_EDIT_OR_DELETE_OWN_ADMIN_ACCOUNT";
  return null;
}
