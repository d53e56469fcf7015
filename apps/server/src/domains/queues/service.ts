import { limitReached, lockPlanLimit } from "../../db/plan-limits.js";
import { channel, DEFAULT_QUEUE_SCHEDULES, type QueueEvent, type QueueInput, queueInput, type queueUpdateInput } from "@atende/shared";
import type { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { rooms } from "../../core/realtime.js";
import type { Sql } from "../../db/sql.js";
import { presentQueue } from "./presenter.js";
import * as repo from "./repository.js";

type ParsedInput = ReturnType<typeof queueInput.parse>;

const colorTaken = () => new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS", "Esta cor já está em uso por outra fila");
const nameTaken = () =>
  new AppError("ERR_VALIDATION", "Já existe uma fila com este nome", { fields: { name: "Já existe uma fila com este nome" } }, 409);

/** Maps the unique constraints of `queues` (a concurrent save that passed the pre-check) to API errors. */
function translateUniqueViolation(err: unknown): never {
  const e = err as { code?: string; constraint?: string };
  if (e.code === "23505" && e.constraint?.includes("color")) throw colorTaken();
  if (e.code === "23505" && e.constraint?.includes("name")) throw nameTaken();
  throw err;
}

async function assertUnique(sql: Sql, companyId: number, name: string, color: string, exceptId?: number) {
  if (await repo.findQueueByColor(sql, companyId, color, exceptId)) throw colorTaken();
  if (await repo.findQueueByName(sql, companyId, name, exceptId)) throw nameTaken();
}

function emit(ctx: AppContext, companyId: number, event: QueueEvent) {
  ctx.realtime.emit(rooms.company(companyId), channel.queue(companyId), event);
}

export async function listQueues(ctx: AppContext, companyId: number) {
  return (await repo.listQueues(ctx.sql, companyId)).map(presentQueue);
}

export async function getQueue(ctx: AppContext, companyId: number, id: number) {
  const row = await repo.findQueue(ctx.sql, companyId, id);
  if (!row) throw new AppError("ERR_NOT_FOUND", "Fila não encontrada");
  return presentQueue(row);
}

/** Creates a queue within the plan's queue limit (0 = unlimited); default opening hours when none are given. */
export async function createQueue(ctx: AppContext, companyId: number, input: ParsedInput | QueueInput) {
  const data = queueInput.parse(input);
  const row = await ctx.sql
    .tx(async (sql) => {
      const plan = await lockPlanLimit(sql, companyId, "queues");
      if (plan && limitReached(plan)) {
        throw new AppError("ERR_PLAN_LIMIT_REACHED", `O plano da empresa permite no máximo ${plan.limit} filas`, { limit: plan.limit });
      }
      await assertUnique(sql, companyId, data.name, data.color);
      return repo.insertQueue(sql, companyId, {
        name: data.name,
        color: data.color,
        greetingMessage: data.greetingMessage,
        outOfHoursMessage: data.outOfHoursMessage,
        orderQueue: data.orderQueue ?? null,
        schedules: data.schedules ?? DEFAULT_QUEUE_SCHEDULES,
        promptId: data.promptId ?? null,
        integrationId: data.integrationId ?? null,
      });
    })
    .catch(translateUniqueViolation);
  const queue = presentQueue(row);
  emit(ctx, companyId, { action: "create", queue });
  return queue;
}

/** Updates the given fields (payload, schedules, prompt and integration); others keep their values. */
export async function updateQueue(ctx: AppContext, companyId: number, id: number, input: z.output<typeof queueUpdateInput>) {
  const row = await ctx.sql
    .tx(async (sql) => {
      const current = await repo.findQueue(sql, companyId, id);
      if (!current) throw new AppError("ERR_NOT_FOUND", "Fila não encontrada");
      const next: repo.QueueValues = {
        name: input.name ?? current.name,
        color: input.color ?? current.color,
        greetingMessage: input.greetingMessage ?? current.greeting_message,
        outOfHoursMessage: input.outOfHoursMessage ?? current.out_of_hours_message,
        orderQueue: input.orderQueue === undefined ? current.order_queue : input.orderQueue,
        schedules: input.schedules ?? current.schedules,
        promptId: input.promptId === undefined ? current.prompt_id : input.promptId,
        integrationId: input.integrationId === undefined ? current.integration_id : input.integrationId,
      };
      await assertUnique(sql, companyId, next.name, next.color, id);
      const updated = await repo.updateQueue(sql, companyId, id, next);
      if (!updated) throw new AppError("ERR_NOT_FOUND", "Fila não encontrada");
      return updated;
    })
    .catch(translateUniqueViolation);
  const queue = presentQueue(row);
  emit(ctx, companyId, { action: "update", queue });
  return queue;
}

export async function deleteQueue(ctx: AppContext, companyId: number, id: number) {
  const members = await repo.queueUserIds(ctx.sql, companyId, id);
  const deleted = await repo.deleteQueue(ctx.sql, companyId, id);
  if (!deleted) throw new AppError("ERR_NOT_FOUND", "Fila não encontrada");
  emit(ctx, companyId, { action: "delete", queueId: id });
  // Members' sockets leave the deleted queue's room.
  await Promise.all(
    members.map((m) =>
      ctx.realtime
        .refreshUser(m.user_id, companyId)
        .catch((err: unknown) => ctx.log.warn({ err, companyId, queueId: id, userId: m.user_id }, "could not move a member's sockets out of a deleted queue's room")),
    ),
  );
}
