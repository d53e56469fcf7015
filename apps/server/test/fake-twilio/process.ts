import { fork } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FakeTwilioOptions } from "./server.js";

export interface FakeTwilioProcess {
  url: string;
  /** Every accepted message as [arrival ms, To]. */
  arrivals(): Promise<[number, string][]>;
  count(): Promise<number>;
  /** Waits for every status callback; answers how many failed. */
  settled(): Promise<{ failures: number }>;
  close(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** Starts the fake Twilio (test/fake-twilio/server.ts) in a child process (the bench's independent clock). */
export async function startFakeTwilioProcess(options: FakeTwilioOptions): Promise<FakeTwilioProcess> {
  const child = fork(path.join(here, "process-main.ts"), [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let seq = 0;
  const waiting = new Map<number, (v: unknown) => void>();
  child.on("message", (m: { id: number; result: unknown }) => {
    waiting.get(m.id)?.(m.result);
    waiting.delete(m.id);
  });
  const call = <T>(cmd: string, arg?: unknown) =>
    new Promise<T>((resolve, reject) => {
      const id = ++seq;
      waiting.set(id, (v) => resolve(v as T));
      child.send({ id, cmd, arg }, (err) => err && reject(err));
    });
  const { url } = await call<{ url: string }>("start", options);
  return {
    url,
    arrivals: () => call("arrivals"),
    count: () => call("count"),
    settled: () => call("settled"),
    async close() {
      await call("stop");
      child.kill();
    },
  };
}
