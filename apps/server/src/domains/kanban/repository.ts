import { KANBAN_MAX_TICKETS } from "@atende/shared";
import type { Sql } from "../../db/sql.js";
import { TICKET_COLUMNS, TICKET_JOINS, type TicketRow } from "../tickets/repository.js";
import { visibilitySql, type VisibilityContext } from "../tickets/visibility.js";

/** Open and pending tickets the user sees (widest view they may switch on), optionally in some queues. */
export function kanbanTickets(sql: Sql, v: VisibilityContext, queueIds: number[] | undefined) {
  const params: unknown[] = [v.actor.companyId];
  const where = ["t.company_id = $1", "t.status IN ('open', 'pending')", visibilitySql(v, params, true)];
  if (queueIds?.length) {
    params.push(queueIds);
    where.push(`(t.queue_id = ANY($${params.length}::int[]) OR t.queue_id IS NULL)`);
  }
  params.push(KANBAN_MAX_TICKETS);
  return sql.many<TicketRow>(
    `SELECT ${TICKET_COLUMNS} FROM tickets t ${TICKET_JOINS}
      WHERE ${where.join(" AND ")}
      ORDER BY t.updated_at DESC, t.id DESC LIMIT $${params.length}`,
    params,
  );
}

export function findTag(sql: Sql, companyId: number, tagId: number) {
  return sql.maybe<{ id: number; kanban: number }>("SELECT id, kanban FROM tags WHERE company_id = $1 AND id = $2", [companyId, tagId]);
}

/** Adds the tag (idempotent) and bumps the ticket so offline caches pick the change up. */
export async function addTicketTag(sql: Sql, companyId: number, ticketId: number, tagId: number) {
  await sql.exec(
    "INSERT INTO ticket_tags (company_id, ticket_id, tag_id) VALUES ($1, $2, $3) ON CONFLICT (company_id, ticket_id, tag_id) DO NOTHING",
    [companyId, ticketId, tagId],
  );
  await sql.exec("UPDATE tickets SET updated_at = now() WHERE company_id = $1 AND id = $2", [companyId, ticketId]);
}

/** Removes the ticket's kanban tags (lanes); its other tags stay. */
export async function removeKanbanTags(sql: Sql, companyId: number, ticketId: number) {
  const n = await sql.exec(
    `DELETE FROM ticket_tags tt USING tags tg
      WHERE tt.company_id = $1 AND tt.ticket_id = $2 AND tg.company_id = tt.company_id AND tg.id = tt.tag_id AND tg.kanban = 1`,
    [companyId, ticketId],
  );
  await sql.exec("UPDATE tickets SET updated_at = now() WHERE company_id = $1 AND id = $2", [companyId, ticketId]);
  return n;
}
