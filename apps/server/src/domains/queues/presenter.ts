import type { Queue } from "@atende/shared";
import type { QueueRow } from "./repository.js";

export function presentQueue(row: QueueRow): Queue {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    greetingMessage: row.greeting_message,
    outOfHoursMessage: row.out_of_hours_message,
    orderQueue: row.order_queue,
    schedules: row.schedules,
    promptId: row.prompt_id,
    integrationId: row.integration_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
