import type { AuditEntry } from "@atende/shared";
import type { AuditRow } from "./repository.js";

export function presentAudit(r: AuditRow): AuditEntry {
  return {
    id: Number(r.id),
    action: r.action,
    actor: { id: r.actor_user_id, name: r.actor_name },
    ip: r.ip,
    target: { type: r.target_type, id: r.target_id, label: r.target_label },
    details: r.details,
    createdAt: r.created_at.toISOString(),
  };
}
