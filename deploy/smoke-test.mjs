// A deployment's smoke test, run from the repository (after `npm install`) against a running
// deployment: docs/deployment.md "Check a deployment". Exits 1 at the first step that fails.
//
//   SMOKE_BASE_URL=https://atende.example.com.br ADMIN_EMAIL=... ADMIN_PASSWORD=... node deploy/smoke-test.mjs
//
// SMOKE_SOCKET_URLS (comma-separated, default the base URL): where the sockets connect; give each web
// process's own address to see an event cross processes through Redis.
// SMOKE_IMPORT_ROWS (default 0, skipped): also import that many contacts (more than 2,000 runs as a
// background job on a worker) named "Smoke <n>"; for a fresh deployment, not a company in use.
// Caddy's local certificate (SITE_ADDRESS=localhost): NODE_EXTRA_CA_CERTS=<its root.crt>.
import { performance } from "node:perf_hooks";
import { io } from "socket.io-client";

const base = (process.env.SMOKE_BASE_URL ?? "https://localhost").replace(/\/$/, "");
const socketUrls = (process.env.SMOKE_SOCKET_URLS ?? base).split(",").map((u) => u.trim()).filter(Boolean);
const importRows = Number(process.env.SMOKE_IMPORT_ROWS ?? 0);
const email = process.env.ADMIN_EMAIL;
const password = process.env.ADMIN_PASSWORD;
if (!email || !password) {
  console.error("set ADMIN_EMAIL and ADMIN_PASSWORD");
  process.exit(2);
}

const step = (name, detail) => console.log(`ok  ${name}${detail ? `: ${detail}` : ""}`);
function fail(name, detail) {
  console.error(`FAIL ${name}: ${detail}`);
  process.exit(1);
}

async function call(method, path, { token, body, form } = {}) {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  if (body) headers["content-type"] = "application/json";
  const res = await fetch(`${base}${path}`, { method, headers, body: form ?? (body ? JSON.stringify(body) : undefined) });
  const text = await res.text();
  // the web app's pages are HTML: only JSON answers are parsed
  const json = (res.headers.get("content-type") ?? "").includes("application/json") && text ? JSON.parse(text) : undefined;
  return { status: res.status, json, text };
}

// 1. ready: database, migrations and Redis
const ready = await call("GET", "/readyz");
if (ready.status !== 200) fail("readyz", `${ready.status} ${ready.text}`);
step("readyz", JSON.stringify(ready.json.checks));

// 2. the web app and the API behind the proxy
const page = await call("GET", "/login");
if (page.status !== 200 || !page.text.includes("<div id=\"root\">")) fail("web app", `${page.status}`);
step("web app", `/login ${page.text.length} bytes`);
const login = await call("POST", "/api/auth/login", { body: { email, password } });
if (login.status !== 200) fail("login", `${login.status} ${login.text}`);
const { token, user } = login.json;
step("login", `${user.email}, company ${user.companyId}`);

// 3. a socket on each address, over WebSocket (through the proxy's upgrade)
const sockets = await Promise.all(
  socketUrls.map(
    (url) =>
      new Promise((resolve) => {
        const s = io(url, { path: "/socket.io", transports: ["websocket"], auth: { token }, reconnection: false, timeout: 10_000 });
        s.on("connect", () => resolve(s));
        s.on("connect_error", (err) => fail(`socket ${url}`, err.message));
      }),
  ),
);
step("sockets", `${sockets.length} connected over WebSocket (${socketUrls.join(", ")})`);

/** Resolves when every socket has seen an event on `channel` that `match` accepts: the ms each took. */
function everySocketSees(channel, match, timeoutMs) {
  const t0 = performance.now();
  return Promise.all(
    sockets.map(
      (s, i) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => fail(`event ${channel}`, `not seen by the socket of ${socketUrls[i]} in ${timeoutMs} ms`), timeoutMs);
          const on = (data) => {
            if (!match(data)) return;
            clearTimeout(timer);
            s.off(channel, on);
            resolve(Math.round(performance.now() - t0));
          };
          s.on(channel, on);
        }),
    ),
  );
}

// 4. an event caused by a request on one process reaches the sockets on every process
const tagName = `smoke-${Date.now().toString(36)}`;
const tagEvents = everySocketSees(`company-${user.companyId}-tag`, (d) => d?.tag?.name === tagName, 10_000);
const tag = await call("POST", "/api/tags", { token, body: { name: tagName, color: "#5C59A0" } });
if (tag.status !== 200) fail("create tag", `${tag.status} ${tag.text}`);
step("real-time", `the new tag's event reached every socket in ${(await tagEvents).join(", ")} ms`);
const removed = await call("DELETE", `/api/tags/${tag.json.id}`, { token });
if (removed.status !== 200) fail("delete tag", `${removed.status} ${removed.text}`);

// 5. optional: a background job on a worker (a large contacts import) with its progress on the sockets
if (importRows > 0) {
  const stamp = String(Date.now() % 10_000).padStart(4, "0");
  const lines = ["nome;telefone;cpf;email"];
  for (let i = 0; i < importRows; i++) lines.push(`Smoke ${i};55119${stamp}${String(i % 10_000).padStart(4, "0")};;`);
  const form = new FormData();
  form.append("file", new Blob([lines.join("\n")], { type: "text/csv" }), "smoke.csv");
  // listening before the upload: a small file ends within the request, a large one soon after it
  const ended = everySocketSees(`company-${user.companyId}-contact`, (d) => d?.action === "import-progress" && d.status !== "running", 120_000);
  const t0 = performance.now();
  const started = await call("POST", "/api/contacts/import", { token, form });
  if (started.status !== 202 && started.status !== 200) fail("import", `${started.status} ${started.text}`);
  await ended;
  const r = (await call("GET", `/api/contacts/import/${started.json.jobId}`, { token })).json;
  if (r?.status !== "done" || r.imported + r.updated !== importRows) fail("import", JSON.stringify(r));
  step("import", `${importRows} rows ${started.status === 202 ? "by a background job" : "in the request"}: ${r.imported} imported, ${r.updated} updated, ${Math.round(performance.now() - t0)} ms`);
}

for (const s of sockets) s.disconnect();
console.log("smoke test passed");
