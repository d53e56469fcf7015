import type { Domain } from "../../core/domain.js";
import { expireTicket } from "./expire-job.js";
import { EXPIRE_JOB, expirePayload } from "./expiry.js";

/** The channel layer's durable timers: inactivity expiry of tickets (one job per ticket at a time). */
export const channelRouting: Domain = (_api, ctx) => {
  ctx.jobs.define({ name: EXPIRE_JOB, schema: expirePayload, concurrency: 1, retryLimit: 5, handler: (p) => expireTicket(ctx, p) });
};
