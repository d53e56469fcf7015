import { spawn } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../../..");

it("an unhandled rejection is logged with its reason and the server keeps serving", async () => {
  // node itself with tsx's loader (not the tsx CLI, which runs the script in a child of its own that a SIGKILL of the CLI would leave running)
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve(import.meta.dirname, "../../test/fixtures/unhandled-rejection.ts")], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => (out += c.toString()));
  try {
    const deadline = Date.now() + 20_000;
    while (!/PORT \d+/.test(out) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    const port = /PORT (\d+)/.exec(out)?.[1];
    expect(port, out).toBeDefined();
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(await res.text()).toBe("still serving");
    const line = out.split("\n").find((l) => l.includes("unhandled promise rejection"));
    expect(JSON.parse(line ?? "{}")).toMatchObject({ level: 50, err: { message: "boom from a forgotten catch" } });
    expect(child.exitCode).toBeNull();
  } finally {
    child.kill("SIGKILL");
  }
}, 30_000);
