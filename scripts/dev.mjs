// `npm run dev`: the server with reload (tsx watch) on PORT 8080 and Vite's dev server on 5173 with hot reload.
import { spawn } from "node:child_process";

const procs = [
  spawn("npm", ["run", "dev", "-w", "apps/server"], { stdio: "inherit" }),
  spawn("npm", ["run", "dev", "-w", "apps/web"], { stdio: "inherit" }),
];
const stop = () => procs.forEach((p) => p.kill("SIGTERM"));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
procs.forEach((p) => p.on("exit", stop));
