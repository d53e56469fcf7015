import type { FastifyBaseLogger } from "fastify";

/**
 * Process-level safety nets (main.ts installs them).
 *
 * - An unhandled promise rejection is a bug in one code path (a forgotten await or catch); the
 *   process state is still sound, so it is logged with its reason and the server keeps serving.
 * - An uncaught exception leaves the process in an unknown state (Node's own advice is to exit):
 *   it is logged as fatal, `shutdown` closes the server and the embedded database (main.ts bounds it
 *   to 15 s), and the process exits with 1 so a supervisor restarts it.
 */
export function installProcessHandlers(log: FastifyBaseLogger, shutdown: (exitCode: number) => Promise<void>): void {
  process.on("unhandledRejection", (reason) => {
    log.error({ err: reason }, "unhandled promise rejection (a missing catch); the server keeps serving");
  });
  process.on("uncaughtException", (err, origin) => {
    log.fatal({ err, origin }, "uncaught exception; shutting down");
    void shutdown(1);
  });
}
