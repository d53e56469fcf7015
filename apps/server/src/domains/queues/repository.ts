import type { QueueScheduleEntry } from "@atende/shared";
import type { Sql } from "../../db/sql.js";

export interface QueueRow {
  id: number;
  name: string;
  color: string;
  greeting_message: string;
  out_of_hours_message: string;
  order_queue: number | null;
  schedules: QueueScheduleEntry[];
  prompt_id: number | null;
  integration_id: number | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, name, color, greeting_message, out_of_hours_message, order_queue, schedules, prompt_id, integration_id, created_at, updated_at`;

export interface QueueValues {
  name: string;
  color: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  orderQueue: number | null;
  schedules: QueueScheduleEntry[];
  promptId: number | null;
  integrationId: number | null;
}

/** Ordered as the ticket screens show them: by orderQueue (unset last), then name. */
export function listQueues(sql: Sql, companyId: number) {
  return sql.many<QueueRow>(
    `SELECT ${COLUMNS} FROM queues WHERE company_id = $1 ORDER BY order_queue ASC NULLS LAST, name ASC, id ASC`,
    [companyId],
  );
}

export function findQueue(sql: Sql, companyId: number, id: number) {
  return sql.maybe<QueueRow>(`SELECT ${COLUMNS} FROM queues WHERE company_id = $1 AND id = $2`, [companyId, id]);
}

export function findQueueByColor(sql: Sql, companyId: number, color: string, exceptId?: number) {
  return sql.maybe<{ id: number }>(
    "SELECT id FROM queues WHERE company_id = $1 AND lower(color) = lower($2) AND id <> $3",
    [companyId, color, exceptId ?? 0],
  );
}

export function findQueueByName(sql: Sql, companyId: number, name: string, exceptId?: number) {
  return sql.maybe<{ id: number }>("SELECT id FROM queues WHERE company_id = $1 AND name = $2 AND id <> $3", [
    companyId,
    name,
    exceptId ?? 0,
  ]);
}

export function insertQueue(sql: Sql, companyId: number, v: QueueValues) {
  return sql.one<QueueRow>(
    `INSERT INTO queues (company_id, name, color, greeting_message, out_of_hours_message, order_queue, schedules, prompt_id, integration_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9) RETURNING ${COLUMNS}`,
    [companyId, v.name, v.color, v.greetingMessage, v.outOfHoursMessage, v.orderQueue, JSON.stringify(v.schedules), v.promptId, v.integrationId],
  );
}

export function updateQueue(sql: Sql, companyId: number, id: number, v: QueueValues) {
  return sql.maybe<QueueRow>(
    `UPDATE queues SET name = $3, color = $4, greeting_message = $5, out_of_hours_message = $6, order_queue = $7,
            schedules = $8::jsonb, prompt_id = $9, integration_id = $10, updated_at = now()
      WHERE company_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [companyId, id, v.name, v.color, v.greetingMessage, v.outOfHoursMessage, v.orderQueue, JSON.stringify(v.schedules), v.promptId, v.integrationId],
  );
}

export function deleteQueue(sql: Sql, companyId: number, id: number) {
  return sql.exec("DELETE FROM queues WHERE company_id = $1 AND id = $2", [companyId, id]);
}

/** Users whose queue membership changes when a queue disappears (their sockets leave its room). */
export function queueUserIds(sql: Sql, companyId: number, queueId: number) {
  return sql.many<{ user_id: number }>("SELECT user_id FROM user_queues WHERE company_id = $1 AND queue_id = $2", [companyId, queueId]);
}
