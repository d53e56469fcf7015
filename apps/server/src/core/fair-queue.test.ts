import { describe, expect, it } from "vitest";
import { FairQueue, QueueFullError } from "./fair-queue.js";

const tick = () => new Promise((r) => setTimeout(r, 5));

/** A job that finishes when released, recording the order it started in. */
function gate(started: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  return { run: async () => (started.push(name), done), release: () => release() };
}

describe("FairQueue", () => {
  it("runs at most `concurrency` jobs at once", async () => {
    const q = new FairQueue({ concurrency: 2, perKey: 10, maxWaiting: 10 });
    const started: string[] = [];
    const jobs = ["a1", "a2", "a3"].map((n) => gate(started, n));
    const all = jobs.map((j) => q.run("a", j.run));
    await tick();
    expect(started).toEqual(["a1", "a2"]);
    jobs[0]!.release();
    await tick();
    expect(started).toEqual(["a1", "a2", "a3"]);
    jobs.forEach((j) => j.release());
    await Promise.all(all);
  });

  it("serves a lower rank first: a real account's login before invented e-mails that arrived after it from many addresses", async () => {
    const q = new FairQueue({ concurrency: 1, perKey: 2, maxWaiting: 64 });
    const started: string[] = [];
    const first = gate(started, "bogus0");
    const all = [q.run("ip:0", first.run, true, 1)];
    const real = gate(started, "real");
    all.push(q.run("ip:real", real.run, true, 0));
    // 40 addresses' invented e-mails arrive after the real login (same served count, later: LIFO would pick them)
    const later = Array.from({ length: 40 }, (_, i) => gate(started, `bogus${i + 1}`));
    later.forEach((j, i) => all.push(q.run(`ip:${i + 1}`, j.run, true, 1)));
    await tick();
    first.release();
    await tick();
    expect(started.slice(0, 2)).toEqual(["bogus0", "real"]);
    real.release();
    later.forEach((j) => j.release());
    await Promise.all(all);
  });

  it("when full, a newcomer displaces a higher rank's waiting job, never a real account's login", async () => {
    const q = new FairQueue({ concurrency: 1, perKey: 2, maxWaiting: 3 });
    const started: string[] = [];
    const refused: string[] = [];
    const jobs = new Map<string, ReturnType<typeof gate>>();
    const ask = (name: string, rank: number) => {
      const g = gate(started, name);
      jobs.set(name, g);
      return q.run(`ip:${name}`, g.run, true, rank).catch((err: unknown) => {
        if (!(err instanceof QueueFullError)) throw err;
        refused.push(name);
      });
    };
    const all = [ask("running", 1), ask("real", 0), ask("b1", 1), ask("b2", 1)];
    await tick();
    // full (3 waiting): each newcomer displaces an invented e-mail's job, not the real one
    all.push(ask("b3", 1), ask("b4", 1));
    await tick();
    expect(refused.sort()).toEqual(["b1", "b2"]);
    jobs.get("running")!.release();
    await tick();
    expect(started).toEqual(["running", "real"]);
    for (const g of jobs.values()) g.release();
    await Promise.all(all);
  });

  it("serves a newcomer before the flooding key's backlog (round robin by key)", async () => {
    const q = new FairQueue({ concurrency: 1, perKey: 10, maxWaiting: 20 });
    const started: string[] = [];
    const flood = ["f1", "f2", "f3", "f4"].map((n) => gate(started, n));
    const real = gate(started, "real");
    const all = [...flood.map((j) => q.run("flood", j.run)), q.run("real", real.run)];
    await tick();
    flood[0]!.release();
    await tick();
    expect(started).toEqual(["f1", "real"]);
    real.release();
    flood.forEach((j) => j.release());
    await Promise.all(all);
  });

  it("refuses at once beyond the per-key share; when full, a newcomer displaces the busiest key's oldest waiting job", async () => {
    const q = new FairQueue({ concurrency: 1, perKey: 2, maxWaiting: 3 });
    const started: string[] = [];
    const jobs = Array.from({ length: 6 }, (_, i) => gate(started, `j${i}`));
    const a0 = q.run("a", jobs[0]!.run); // runs
    const a1 = q.run("a", jobs[1]!.run); // waits
    await expect(q.run("a", jobs[2]!.run)).rejects.toBeInstanceOf(QueueFullError);
    const b = q.run("b", jobs[3]!.run);
    const c = q.run("c", jobs[4]!.run); // three waiting now: a1, b, c
    const d = q.run("d", jobs[5]!.run); // a newcomer: a1 ("a" holds most) is displaced
    await expect(a1).rejects.toBeInstanceOf(QueueFullError);
    await expect(q.run("d", async () => 0)).rejects.toBeInstanceOf(QueueFullError); // "d" holds one already and the queue is full
    const trusted = q.run("local", async () => "done", false);
    jobs.forEach((j) => j.release());
    await Promise.all([a0, b, c, d]);
    await expect(trusted).resolves.toBe("done");
    expect(started).not.toContain("j1");
  });

  it("among keys served alike, takes the one that arrived last (a burst does not bury a later newcomer)", async () => {
    const q = new FairQueue({ concurrency: 1, perKey: 2, maxWaiting: 10 });
    const started: string[] = [];
    const jobs = ["k1", "k2", "k3", "k4", "late"].map((n) => gate(started, n));
    const all = jobs.map((j, i) => q.run(i === 4 ? "late" : `k${i + 1}`, j.run));
    await tick();
    jobs[0]!.release();
    await tick();
    expect(started).toEqual(["k1", "late"]);
    jobs.forEach((j) => j.release());
    await Promise.all(all);
  });

  it("passes a job's failure to its caller and keeps going", async () => {
    const q = new FairQueue({ concurrency: 1, perKey: 2, maxWaiting: 5 });
    await expect(q.run("a", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(q.run("a", async () => 7)).resolves.toBe(7);
  });
});
