import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schemaGaps } from "../src/core/openapi.js";
import { createTestApp, type TestApp } from "./helper.js";

/**
 * The API document (GET /api/docs/openapi.json, Swagger UI at /api/docs): a structurally valid
 * OpenAPI 3.1 document holding every route of the real route table, each route with its schemas
 * (the guard below walks the same table as id-routes.test.ts: a new route without them fails here).
 */
let app: TestApp;
type Operation = {
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean; schema?: unknown }[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
};
type Doc = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
  tags: { name: string }[];
};
let doc: Doc;
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const pathOf = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

let status: number;
beforeAll(async () => {
  app = await createTestApp();
  const res = await app.api("GET", "/api/docs/openapi.json");
  status = res.statusCode;
  doc = res.json();
});
afterAll(async () => {
  await app.close();
});

describe("every route declares its schemas", () => {
  it("params for path parameters, a body (or what it reads instead) for POST/PUT/PATCH, and a response", () => {
    expect(app.routes.length).toBeGreaterThan(200);
    expect(app.routes.flatMap((r) => schemaGaps(r))).toEqual([]);
  });

  it("the guard reports a route without them", () => {
    const bare = { method: "POST", url: "/api/things/:id", schema: undefined, config: {} };
    expect(schemaGaps(bare)).toEqual([
      "POST /api/things/:id: no params schema",
      "POST /api/things/:id: no body (or config.requestBody) schema",
      "POST /api/things/:id: no response schema",
    ]);
    expect(schemaGaps({ ...bare, method: "GET", url: "/api/things" })).toEqual(["GET /api/things: no response schema"]);
    expect(schemaGaps({ ...bare, config: { requestBody: "none" }, schema: { params: {}, response: {} } })).toEqual([]);
  });
});

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 with its info, bearer schemes and tags", () => {
    expect(status).toBe(200);
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toBe("Atende API");
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(doc.components.securitySchemes.accessToken).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.securitySchemes.connectionToken).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.tags.map((t) => t.name)).toEqual(expect.arrayContaining(["tickets", "messages", "external-api", "campaigns", "health"]));
  });

  it("holds every route of the route table, tagged with its domain", () => {
    const missing = app.routes.filter((r) => !doc.paths[pathOf(r.url)]?.[r.method.toLowerCase()]).map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
    const untagged = Object.entries(doc.paths).flatMap(([p, ops]) => Object.entries(ops).filter(([, op]) => op.tags?.length !== 1).map(([m]) => `${m} ${p}`));
    expect(untagged).toEqual([]);
    expect(doc.paths["/api/tickets/{id}"]?.put?.tags).toEqual(["tickets"]);
    expect(doc.paths["/healthz"]?.get?.tags).toEqual(["health"]);
    expect(doc.paths["/metrics"]?.get?.tags).toEqual(["operations"]);
  });

  it("is structurally valid: operations with responses, path parameters declared, references resolved, known security schemes", () => {
    const problems: string[] = [];
    const tags = new Set(doc.tags.map((t) => t.name));
    for (const [p, ops] of Object.entries(doc.paths)) {
      if (!p.startsWith("/")) problems.push(`${p}: a path starts with /`);
      for (const [method, op] of Object.entries(ops)) {
        const where = `${method.toUpperCase()} ${p}`;
        if (!METHODS.includes(method)) problems.push(`${where}: unknown method`);
        const codes = Object.keys(op.responses ?? {});
        if (!codes.length) problems.push(`${where}: no responses`);
        for (const code of codes) {
          if (!/^([1-5]\d\d|[1-5]XX|default)$/.test(code)) problems.push(`${where}: response key ${code}`);
          if (typeof op.responses![code]!.description !== "string") problems.push(`${where}: response ${code} without description`);
        }
        for (const name of [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])) {
          if (!op.parameters?.some((x) => x.in === "path" && x.name === name && x.required === true)) problems.push(`${where}: path parameter ${name} not declared`);
        }
        for (const x of op.parameters ?? []) if (!["path", "query", "header", "cookie"].includes(x.in) || !x.schema) problems.push(`${where}: parameter ${x.name}`);
        if (op.requestBody && !Object.values(op.requestBody.content ?? {}).every((c) => c.schema)) problems.push(`${where}: request body without schema`);
        for (const requirement of op.security ?? []) for (const scheme of Object.keys(requirement)) if (!doc.components.securitySchemes[scheme]) problems.push(`${where}: security ${scheme}`);
        for (const t of op.tags ?? []) if (!tags.has(t)) problems.push(`${where}: tag ${t} not listed`);
      }
    }
    const text = JSON.stringify(doc);
    for (const [, ref] of text.matchAll(/"\$ref":"([^"]+)"/g)) {
      const target = ref!.startsWith("#/") ? ref!.slice(2).split("/").reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc) : undefined;
      if (target === undefined) problems.push(`unresolved $ref ${ref}`);
    }
    // OpenAPI 3.1 schemas are JSON Schema 2020-12: 3.0's nullable is gone
    if (text.includes('"nullable":')) problems.push("a 3.0 nullable in a 3.1 document");
    expect(problems).toEqual([]);
  });

  it("says who may call each route: a session, a connection's token (messages API), nobody (public), METRICS_TOKEN", () => {
    expect(doc.paths["/api/tickets"]?.get?.security).toEqual([{ accessToken: [] }]);
    expect(doc.paths["/api/messages/send"]?.post?.security).toEqual([{ connectionToken: [] }]);
    expect(doc.paths["/api/auth/login"]?.post?.security).toEqual([]);
    expect(doc.paths["/healthz"]?.get?.security).toEqual([]);
    expect(doc.paths["/metrics"]?.get?.security).toEqual([{ metricsToken: [] }]);
  });

  it("describes the external messages API: JSON or a form with files, and its answer", () => {
    const send = doc.paths["/api/messages/send"]!.post!;
    expect(send.tags).toEqual(["external-api"]);
    const json = send.requestBody!.content["application/json"]!.schema as { properties: Record<string, unknown>; required: string[] };
    const form = send.requestBody!.content["multipart/form-data"]!.schema as { properties: Record<string, { items?: unknown }> };
    expect(Object.keys(json.properties)).toEqual(["number", "body"]);
    expect(json.required).toEqual(["number"]);
    expect(form.properties.medias?.items).toMatchObject({ type: "string", format: "binary" });
    const answer = send.responses!["200"]!.content!["application/json"]!.schema as { properties: Record<string, unknown> };
    expect(Object.keys(answer.properties)).toEqual(["message", "ticketId", "contactId", "messages"]);
  });

  it("shows file answers and uploads with their content types", () => {
    expect(Object.keys(doc.paths["/api/reports/tickets.csv"]!.get!.responses!["200"]!.content!)).toEqual(["text/csv"]);
    expect(Object.keys(doc.paths["/api/quick-messages/{id}/media-upload"]!.post!.requestBody!.content)).toEqual(["multipart/form-data"]);
    expect(Object.keys(doc.paths["/api/sms/campaigns/{id}/file/"]!.put!.requestBody!.content)).toEqual(["text/csv"]);
    expect(doc.paths["/api/campaigns/{id}/start"]!.post!.requestBody).toBeUndefined();
  });

  it("leaves out the links inside messages (short links, e-mail tracking) and the viewer's own files", () => {
    expect(Object.keys(doc.paths).filter((p) => /^\/(s|t)\//.test(p) || p.startsWith("/api/docs"))).toEqual([]);
  });
});

describe("the viewer", () => {
  it("serves Swagger UI at /api/docs from this server's own files (no CDN), without a session", async () => {
    const page = await app.api("GET", "/api/docs/");
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(3);
    expect(assets.filter((a) => /^(https?:)?\/\//.test(a))).toEqual([]);
    for (const asset of assets) {
      const res = await app.api("GET", new URL(asset, "http://x/api/docs/").pathname);
      expect(res.statusCode, asset).toBe(200);
    }
    const init = await app.api("GET", "/api/docs/static/swagger-initializer.js");
    // the document comes from this server too
    expect(init.body).toContain("url: resolveUrl('./json')");
    expect((await app.api("GET", "/api/docs/json")).json().openapi).toBe(doc.openapi);
    expect((await app.api("GET", "/api/docs")).statusCode).toBe(200);
  });
});
