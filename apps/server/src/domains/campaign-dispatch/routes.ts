import { campaignProgress, idParam, sandboxFailureRate, sandboxFailureRateInput } from "@atende/shared";
import { z } from "zod";
import type { AppContext } from "../../core/context.js";
import type { Domain } from "../../core/domain.js";
import { Poller } from "../../core/poller.js";
import { CampaignDispatcher, RESUME_JOB } from "./engine.js";
import { campaignNotifier } from "./events.js";
import { dispatchOptions, type DispatchOptions } from "./options.js";
import { giveDueSimulatedStatuses, graphCampaignSender, sandboxCampaignSender, type CampaignSender, type SimulatedStatus } from "./sender.js";
import { pauseCampaign, resumeWaiting, setSandboxFailureRate, startCampaign } from "./service.js";
import { applyCampaignStatuses } from "./statuses.js";
import { noBody } from "../../core/openapi.js";
import { runsBackground } from "../../core/roles.js";

export const START_JOB = "campaign-dispatch.start";
const campaignJob = z.object({ companyId: z.number().int().positive(), campaignId: z.number().int().positive() });

const gate = { gate: { minProfile: "supervisor" as const, planFlag: "useCampaigns" as const, companySetting: "campaignsEnabled" as const } };

/**
 * Campaign dispatch (spec 3 §4, §7; docs/architecture.md "Dispatch: exact rate, exactly once"):
 * start/pause, the scheduled-start and resume jobs, and the engine, which runs in processes that
 * run jobs (RUN_JOBS). `o.senders` replaces the drivers in tests.
 */
export function createCampaignDispatchDomain(o: { options?: Partial<DispatchOptions>; graphSender?: CampaignSender } = {}): Domain {
  return (api, ctx) => {
    const opts = { ...dispatchOptions(), ...o.options };
    const sandbox = sandboxCampaignSender(ctx, { stepMs: opts.sandboxStepMs });
    const dispatcher = new CampaignDispatcher(ctx, opts, { graph: o.graphSender ?? graphCampaignSender(ctx), sandbox });
    const kick = () => dispatcher.kick();

    ctx.jobs.define({
      name: START_JOB,
      schema: campaignJob,
      handler: async ({ companyId, campaignId }) => {
        await startCampaign(ctx, companyId, campaignId, kick).catch((err: unknown) => {
          // a scheduled start of a campaign paused, finished or deleted meanwhile: nothing to do, said in the log
          ctx.log.warn({ err, companyId, campaignId }, "scheduled campaign start refused");
        });
      },
    });
    ctx.jobs.define({
      name: RESUME_JOB,
      schema: campaignJob,
      handler: ({ companyId, campaignId }) =>
        resumeWaiting(ctx, companyId, campaignId, async (at) => void (await ctx.jobs.send(RESUME_JOB, { companyId, campaignId }, { startAfter: at })), kick),
    });

    // the sandbox business's simulated statuses, owed by rows: given in every process that dispatches
    const statuses = new Poller(Math.max(20, Math.min(250, opts.sandboxStepMs / 4)), () => giveSandboxStatuses(ctx, opts.sandboxStepMs), (err) =>
      ctx.log.error({ err }, "sandbox campaign statuses: a run failed; the next one tries again"),
    );
    if (runsBackground(ctx.config, opts.enabled)) {
      api.addHook("onReady", async () => {
        await dispatcher.start();
        statuses.start();
      });
    }
    api.addHook("onClose", async () => {
      await statuses.stop();
      await dispatcher.stop();
      campaignNotifier(ctx).stop();
    });

    api.post(
      "/campaigns/:id/start",
      { config: { ...gate, ...noBody }, schema: { params: idParam, response: { 200: campaignProgress } } },
      async (request) => startCampaign(ctx, request.actor.companyId, request.params.id, kick),
    );
    api.post(
      "/campaigns/:id/pause",
      { config: { ...gate, ...noBody }, schema: { params: idParam, response: { 200: campaignProgress } } },
      async (request) => pauseCampaign(ctx, request.actor.companyId, request.params.id),
    );
    api.put(
      "/sandbox-businesses/:id/failure-rate",
      { config: { gate: { minProfile: "admin" as const, planFlag: "useCampaigns" as const } }, schema: { params: idParam, body: sandboxFailureRateInput, response: { 200: sandboxFailureRate } } },
      async (request) => setSandboxFailureRate(ctx, request.actor.companyId, request.params.id, request.body.failureRate),
    );
  };
}

export const campaignDispatchRoutes = createCampaignDispatchDomain();

/** Gives every simulated status due now (batches of 500), through the handler Meta's webhooks feed. */
async function giveSandboxStatuses(ctx: AppContext, stepMs: number): Promise<void> {
  const limit = 500;
  const apply = async (companyId: number, statuses: SimulatedStatus[]) => void (await applyCampaignStatuses(ctx, companyId, statuses));
  while ((await giveDueSimulatedStatuses(ctx.sql, { limit, stepMs, claimMs: 30_000, log: ctx.log }, apply)) === limit);
}
