import { AsyncLocalStorage } from "node:async_hooks";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { HeldWork, runHoldingForRequest } from "./after-work.js";
import { symbols } from "pino";

/** What a log line says about the work it belongs to: the request, and the job when a job runs it. */
export interface RunContext {
  reqId?: string;
  job?: string;
  jobId?: string;
}

const storage = new AsyncLocalStorage<RunContext>();

/** The id of the request being handled (or of the request that queued the running job). */
export const currentRequestId = (): string | undefined => storage.getStore()?.reqId;

/** Runs `fn` as part of `context`: every line logged meanwhile, by any logger, carries it. */
export const runWithContext = <T>(context: RunContext, fn: () => T): T => storage.run(context, fn);

/** A logger's own bindings, pre-serialized by pino (`,"reqId":"req-1"` for Fastify's request loggers). */
const chindings = (logger: object): unknown => (logger as Record<symbol, unknown>)[symbols.chindingsSym];

/**
 * pino's `mixin`: lines logged through the server's logger (ctx.log, the jobs' logger) while a request
 * or a job runs get its ids, so an operator can follow one request through the services and into the
 * jobs it queued. A request's own logger (Fastify's child, bound to its reqId) gets nothing more.
 */
export function runContextMixin(_merge: object, _level: number, logger: object): RunContext {
  const context = storage.getStore();
  if (!context) return {};
  const bound = chindings(logger);
  if (typeof bound === "string" && bound.includes('"reqId":')) return {};
  return { ...context };
}

const heldByRequest = new WeakMap<FastifyRequest, HeldWork>();

function heldFor(request: FastifyRequest): HeldWork {
  let held = heldByRequest.get(request);
  if (!held) {
    held = new HeldWork();
    heldByRequest.set(request, held);
  }
  return held;
}

/**
 * Enters the request's context for its whole life: at onRequest, and again at preValidation (as
 * @fastify/request-context does), so a content parser whose callbacks run in another async context
 * (a stream's events) cannot leave the handler without it. The request's after-response work
 * (core/after-work.ts: its real-time emits) runs once the answer is sent, or the client went away.
 */
export function registerRunContext(app: FastifyInstance): void {
  const enter = (request: FastifyRequest, done: () => void) => storage.run({ reqId: request.id }, () => runHoldingForRequest(heldFor(request), done));
  app.addHook("onRequest", (request, _reply, done) => enter(request, done));
  app.addHook("preValidation", (request, _reply, done) => enter(request, done));
  app.addHook("onResponse", (request, _reply, done) => {
    heldFor(request).release();
    done();
  });
  app.addHook("onRequestAbort", (request, done) => {
    heldFor(request).release();
    done();
  });
}
