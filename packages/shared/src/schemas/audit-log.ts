import { z } from "zod";
import { isoDate } from "./common.js";

/** What the audit log records (docs/architecture.md "Data protection (LGPD)"). */
export const AUDIT_ACTIONS = [
  "login.succeeded",
  "login.failed",
  "user.profile_changed",
  "contact.exported",
  "contact.erased",
  // the opt-out list corrected by hand (details: channel, address; a removal also what the entry said)
  "opt_out.added",
  "opt_out.removed",
  // a spent refresh token presented after its grace: its session was ended (details: sessionId)
  "session.token_reused",
] as const;
export const auditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditAction>;

export const auditEntry = z.object({
  id: z.number(),
  action: auditAction,
  actor: z.object({ id: z.number().nullable(), name: z.string() }).describe("who acted (id null for a failed login)"),
  ip: z.string().describe("the client address the request came from"),
  target: z.object({ type: z.enum(["", "user", "contact"]), id: z.number().nullable(), label: z.string() }),
  details: z.record(z.string(), z.unknown()).describe("e.g. the old and new profile, the counts of an erasure"),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

/** GET /audit-log: newest first, 50 a page; every filter optional. */
export const auditLogQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  action: auditAction.optional(),
  /** YYYY-MM-DD, in the company's time zone, inclusive. */
  from: isoDate.optional(),
  to: isoDate.optional(),
  /** Part of the actor's name or the target's label. */
  searchParam: z.string().trim().max(200).optional().default(""),
});
export type AuditLogQuery = z.infer<typeof auditLogQuery>;

export const auditLogPage = z.object({ entries: z.array(auditEntry), count: z.number(), hasMore: z.boolean() });
export type AuditLogPage = z.infer<typeof auditLogPage>;
