import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FakePhone } from "./server.js";
import type { FakeTemplate } from "./template-send.js";
import type { StatusPlan } from "./status-webhooks.js";

/**
 * The fake Graph API in a process of its own (test/fake-graph/process-main.ts), for measurements its
 * clock must take without sharing an event loop with the sender: the rate tests, the crash test and
 * bench/campaign-dispatch.ts. Driven over IPC.
 */
export interface FakeGraphProcess {
  url: string;
  host: string;
  accessToken: string;
  appSecret: string;
  wabaId: string;
  setPhones(phones: FakePhone[]): Promise<void>;
  setTemplates(templates: FakeTemplate[]): Promise<void>;
  setStatusPlan(plan: StatusPlan | null): Promise<void>;
  /** Every accepted template send: when it arrived, its recipient, number and biz_opaque_callback_data. */
  sends(): Promise<{ at: number; to: string; phoneNumberId: string; callbackData: string | null }[]>;
  statusesSettled(): Promise<{ deliveries: number; refusals: number }>;
  close(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));

export async function startFakeGraphProcess(): Promise<FakeGraphProcess> {
  const child: ChildProcess = fork(path.join(here, "process-main.ts"), [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
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
  const info = await call<{ url: string; host: string; accessToken: string; appSecret: string; wabaId: string }>("info");
  return {
    ...info,
    setPhones: (phones) => call("phones", phones),
    setTemplates: (templates) => call("templates", templates),
    setStatusPlan: (plan) => call("statusPlan", plan),
    sends: () => call("sends"),
    statusesSettled: () => call("statusesSettled"),
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
