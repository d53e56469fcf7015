import { idParam, messageResponse, schedule, scheduleInput, schedulesPage, schedulesQuery, scheduleUpdateInput } from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import { sendStoredMedia } from "../../core/media-type.js";
import { AppError } from "../../core/errors.js";
import { queueScheduleSend, runScheduleSend, SEND_JOB, sendJobPayload } from "./job.js";
import * as repo from "./repository.js";
import { sendScheduledMessage, type ScheduleSender } from "./sender.js";
import * as schedules from "./service.js";
import { fileAnswer, upload } from "../../core/openapi.js";

const gate = { gate: { planFlag: "useSchedules" as const } };

/** Schedules (2-administration §7), behind the plan's useSchedules flag. `sender` is replaceable in tests. */
export function createSchedulesDomain(customSender?: ScheduleSender): Domain {
  return (api, ctx) => {
    const sender: ScheduleSender = customSender ?? { send: sendScheduledMessage(ctx) };

    ctx.jobs.define({
      name: SEND_JOB,
      schema: sendJobPayload,
      concurrency: 2,
      handler: async (payload) => {
        const outcome = await runScheduleSend(ctx, sender, payload);
        if (outcome === "skipped" || outcome === "waiting") return;
        await schedules.emitCurrent(ctx, payload.companyId, payload.scheduleId);
      },
    });

    // Schedules saved just before a crash, whose job was never queued, are queued when the server is ready.
    // A failure here must not stop the server from starting: it is logged, and the schedule stays
    // PENDENTE (visible in the list) until it is saved again or the next start queues it.
    api.addHook("onReady", async () => {
      const lost = await repo.findUnqueued(ctx.sql).catch((err: unknown) => {
        ctx.log.error({ err }, "could not look for schedules whose send job was never queued");
        return [];
      });
      for (const s of lost) {
        await queueScheduleSend(ctx, s.company_id, s.id, s.send_at).catch((err: unknown) =>
          ctx.log.error({ err, companyId: s.company_id, scheduleId: s.id }, "could not queue a schedule's send job"),
        );
      }
    });

    api.get("/schedules", { config: gate, schema: { querystring: schedulesQuery, response: { 200: schedulesPage } } }, async (request) =>
      schedules.listSchedules(ctx, request.actor.companyId, request.query),
    );

    api.get("/schedules/:id", { config: gate, schema: { params: idParam, response: { 200: schedule } } }, async (request) =>
      schedules.getSchedule(ctx, request.actor.companyId, request.params.id),
    );

    api.post("/schedules", { config: gate, schema: { body: scheduleInput, response: { 200: schedule } } }, async (request) =>
      schedules.createSchedule(ctx, request.actor, request.body),
    );

    api.put(
      "/schedules/:id",
      { config: gate, schema: { params: idParam, body: scheduleUpdateInput, response: { 200: schedule } } },
      async (request) => schedules.updateSchedule(ctx, request.actor, request.params.id, request.body),
    );

    api.delete("/schedules/:id", { config: gate, schema: { params: idParam, response: { 200: messageResponse } } }, async (request) => {
      await schedules.deleteSchedule(ctx, request.actor, request.params.id);
      return { message: "Agendamento excluído" };
    });

    api.post("/schedules/:id/media-upload", { config: { ...gate, ...upload() }, schema: { params: idParam, response: { 200: schedule } } }, async (request) => {
      if (!request.isMultipart()) throw new AppError("ERR_VALIDATION", "Envie o arquivo como multipart/form-data (campo file)");
      const file = await request.file();
      if (!file) throw new AppError("ERR_VALIDATION", "Por favor, selecione um arquivo.");
      const data = await file.toBuffer();
      return schedules.attachMedia(ctx, request.actor, request.params.id, { fileName: file.filename, mimetype: file.mimetype, data });
    });

    api.delete("/schedules/:id/media-upload", { config: gate, schema: { params: idParam, response: { 200: schedule } } }, async (request) =>
      schedules.removeMedia(ctx, request.actor, request.params.id),
    );

    api.get("/schedules/:id/media", { config: gate, schema: { params: idParam, ...fileAnswer("application/octet-stream") } }, async (request, reply) => {
      const file = await schedules.openMedia(ctx, request.actor.companyId, request.params.id);
      return sendStoredMedia(reply, { ...file, fileName: file.name });
    });
  };
}

export const schedulesRoutes: Domain = createSchedulesDomain();
