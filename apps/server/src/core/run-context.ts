import { AsyncLocalStorage } from "node:async_hooks";
import type { FastifyInstance } from "fastify";
import type { Bindings, ChildLoggerOptions, Logger } from "pino";

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

/** Fastify's per-request loggers already carry `reqId` in their bindings. */
const requestLoggers = new WeakSet<object>();

/** Fastify's `childLoggerFactory`: the request's logger, remembered so the mixin adds nothing to it. */
export function requestChildLogger(logger: Logger, bindings: Bindings, opts: ChildLoggerOptions): Logger {
  const child = logger.child(bindings, opts);
  requestLoggers.add(child);
  return child;
}

/**
 * pino's `mixin`: lines logged through the server's logger (ctx.log, the jobs' logger) while a request
 * or a job runs get its ids, so an operator can follow one request through the services and into the
 * jobs it queued. A request's own logger has `reqId` already.
 */
export function runContextMixin(_merge: object, _level: number, logger: object): RunContext {
  const context = storage.getStore();
  if (!context || requestLoggers.has(logger)) return {};
  return { ...context };
}

/**
 * Enters the request's context for its whole life: at onRequest, and again at preValidation (as
 * @fastify/request-context does), so a content parser whose callbacks run in another async context
 * (a stream's events) cannot leave the handler without it.
 */
export function registerRunContext(app: FastifyInstance): void {
  app.addHook("onRequest", (request, _reply, done) => storage.run({ reqId: request.id }, done));
  app.addHook("preValidation", (request, _reply, done) => storage.run({ reqId: request.id }, done));
}
