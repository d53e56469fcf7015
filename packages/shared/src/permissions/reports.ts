import type { PlanFlags } from "../enums.js";
import type { ErrorCode } from "../errors.js";
import { gateForPath, passesGate } from "./menu.js";
import type { Actor } from "./roles.js";

/**
 * Who may read reports (1-core §2: /reports is for supervisors and above). Supervisors and admins
 * read every ticket cycle of their company: the widest view the ticket visibility rule gives them
 * (show all); agents of profile user never read reports, so never another agent's figures. The
 * route guard, the menu and every /api/reports route use this one rule.
 */
export function reportsRefusal(actor: Pick<Actor, "profile" | "super">, plan: Partial<PlanFlags> | null | undefined): ErrorCode | null {
  return passesGate(actor, plan, gateForPath("/reports")) ? null : "ERR_NO_PERMISSION";
}
