import type { PlanFlag, PlanFlags, Profile } from "../enums.js";

/** What the rule functions need to know about the acting user. */
export interface Actor {
  id: number;
  companyId: number;
  profile: Profile;
  super: boolean;
  allTicket?: "enable" | "disable";
}

const RANK: Record<Profile, number> = { user: 0, supervisor: 1, admin: 2 };

/** True when the actor's profile is at least `min` (super users count as admins). */
export function atLeast(actor: Pick<Actor, "profile" | "super">, min: Profile): boolean {
  if (actor.super) return true;
  return RANK[actor.profile] >= RANK[min];
}

/** Admins and platform super users: every ticket, every queue, every company record (1-core §6). */
export function isAdmin(actor: Pick<Actor, "profile" | "super">): boolean {
  return actor.super || actor.profile === "admin";
}

/** Named permission rules of spec 1-core §6 and the profile that first holds each. */
export const PERMISSION_RULES = {
  "tickets-manager:showall": "supervisor",
  "connections-page:addConnection": "admin",
  "connections-page:actionButtons": "admin",
  "connections-page:editOrDeleteConnection": "admin",
  "official-connections-page:editConnection": "admin",
  "user-modal:editProfile": "admin",
  "user-modal:editQueues": "admin",
  "contacts-page:deleteContact": "admin",
  "dashboard:view": "admin",
  "reports:view": "supervisor",
  "tickets:delete": "admin",
  "tickets:userFilter": "admin",
  "tickets:allQueues": "admin",
  "company:dueDateNotice": "admin",
  "campaigns:manage": "supervisor",
  // LGPD: exporting and erasing one contact's data, and reading the audit log
  "contacts-page:personalData": "admin",
  "audit-log:view": "admin",
} as const satisfies Record<string, Profile>;

export type PermissionRule = keyof typeof PERMISSION_RULES;

export function can(actor: Pick<Actor, "profile" | "super">, rule: PermissionRule): boolean {
  return atLeast(actor, PERMISSION_RULES[rule]);
}

export function hasPlanFlag(plan: Partial<PlanFlags> | null | undefined, flag: PlanFlag): boolean {
  return Boolean(plan?.[flag]);
}
