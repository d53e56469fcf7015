import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance, FastifySchema, RouteOptions } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { z } from "zod";

/**
 * A request body the route's schema does not validate because the handler reads it itself (a file
 * upload, a signed raw body, a provider's form), described for the API document.
 */
export interface DocumentedBody {
  /** multipart/form-data: the text fields (a zod object) and the names of the file fields. */
  form?: { fields?: z.ZodObject; files: string[] };
  /** application/json, for a route that takes JSON as well as a form. */
  json?: z.ZodType;
  /** Another content type (a provider's callback): what it carries. */
  raw?: { type: string; schema?: z.ZodType; description: string };
}

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * For the API document and its guard (test/openapi.test.ts), on a POST, PUT or PATCH route
     * without `schema.body`: "none" for an action that takes no body, otherwise what the handler reads.
     */
    requestBody?: "none" | DocumentedBody;
    /** The OpenAPI tag (the domain's folder name), set on every route of a domain by app.ts. */
    tag?: string;
  }
}

/** A file answer (media, CSV): the document shows these content types with a binary body. */
export const fileResponse = z.any().meta({ type: "string", format: "binary", description: "The file's bytes" });

/** The schema parts of a route answering a file (media, CSV): its content types and a binary body. */
export const fileAnswer = (...types: string[]) => ({ produces: types, response: { 200: fileResponse } });

/** Route config of an action that takes no request body (POST /campaigns/:id/start ...). */
export const noBody = { requestBody: "none" } as const;

/** Route config of a file upload: multipart/form-data with these file fields (and text fields). */
export const upload = (files: string[] = ["file"], fields?: z.ZodObject) => ({ requestBody: { form: { files, fields } } });

/** A campaign's recipients file sent as the raw body (the handler streams it to disk). */
export const csvBody: DocumentedBody = {
  raw: { type: "text/csv", schema: fileResponse, description: "The recipients file as the request body (`Content-Type: text/csv`), streamed to disk." },
};

/** Routes outside /api kept out of the document: links inside messages sent to recipients, and the web app. */
const NOT_API = [/^\/s\//, /^\/t\//, /^\/\*$/];

type TransformInput = Parameters<typeof jsonSchemaTransform>[0] & { route: RouteOptions };

/**
 * Each route's zod schemas → OpenAPI (fastify-type-provider-zod's transform), plus what zod cannot
 * say: the domain's tag, who may call it (security), and the bodies the handler reads itself.
 */
function transform(input: TransformInput) {
  const { url, route } = input;
  const config = route.config ?? {};
  if (NOT_API.some((re) => re.test(url))) return { schema: { hide: true }, url };
  // a route without any schema still appears (the guard test names it)
  const out = (jsonSchemaTransform(input).schema ?? {}) as Record<string, unknown>;
  const tag = config.tag ?? (url.startsWith("/api/") ? "api" : "operations");
  out.tags = [tag];
  // public routes need no session; the messages API takes a connection's token, /metrics METRICS_TOKEN; the rest a session's access token
  if (url === "/metrics") out.security = [{ metricsToken: [] }];
  else out.security = config.public ? (tag === "external-api" ? [{ connectionToken: [] }] : []) : [{ accessToken: [] }];
  const documented = config.requestBody && config.requestBody !== "none" && !input.schema?.body ? config.requestBody : undefined;
  if (documented) {
    // each content type's schema goes through the same zod → JSON Schema conversion as a validated body
    const json = (body: z.ZodType) => (jsonSchemaTransform({ ...input, schema: { body } }).schema as { body: unknown }).body;
    const content: Record<string, { schema: unknown }> = {};
    if (documented.json) content["application/json"] = { schema: json(documented.json) };
    if (documented.form) content["multipart/form-data"] = { schema: json(formSchema(documented.form)) };
    if (documented.raw) content[documented.raw.type] = { schema: json(documented.raw.schema ?? fileResponse) };
    out.body = { content };
    if (documented.raw) out.description = [out.description, documented.raw.description].filter(Boolean).join("\n\n");
  }
  return { schema: out, url };
}

/** The document with its tags listed once, in order (the viewer's sections). */
function transformObject(input: Parameters<typeof jsonSchemaTransformObject>[0]) {
  const document = jsonSchemaTransformObject(input) as { paths?: Record<string, Record<string, { tags?: string[] }>> };
  const tags = new Set<string>();
  for (const operations of Object.values(document.paths ?? {})) for (const op of Object.values(operations)) for (const t of op.tags ?? []) tags.add(t);
  return { ...document, tags: [...tags].sort().map((name) => ({ name })) };
}

/** A form's fields with its files as binary strings (JSON Schema of a multipart/form-data body). */
function formSchema(form: NonNullable<DocumentedBody["form"]>): z.ZodType {
  const files = Object.fromEntries(form.files.map((name) => [name, z.array(fileResponse).optional().describe("One or more files")]));
  return (form.fields ?? z.object({})).extend(files);
}

/**
 * The OpenAPI 3.1 document of every route (from the route schemas), at /api/docs/openapi.json, with
 * Swagger UI at /api/docs. The viewer's files are served from this server (no CDN: installations
 * may have no internet). Registered before the routes so @fastify/swagger sees each one.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Atende API",
        version,
        description:
          "The API of the Atende web app and the external messages API. Errors answer `{ error, message }` with a code of the error catalogue " +
          "(packages/shared/src/errors.ts). Private routes take a session's access token (POST /api/auth/login) as `Authorization: Bearer`; " +
          "POST /api/messages/send takes a WhatsApp connection's API token the same way.",
      },
      components: {
        securitySchemes: {
          accessToken: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "A session's access token (POST /api/auth/login, renewed by POST /api/auth/refresh_token)." },
          connectionToken: { type: "http", scheme: "bearer", description: "A WhatsApp connection's API token (Connections page, or POST /api/whatsapp/{id}/token)." },
          metricsToken: { type: "http", scheme: "bearer", description: "METRICS_TOKEN (docs/settings.md)." },
        },
      },
      security: [{ accessToken: [] }],
    },
    transform: transform as unknown as typeof jsonSchemaTransform,
    transformObject: transformObject as typeof jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, {
    routePrefix: "/api/docs",
    // the server's own Content-Security-Policy (security-headers.ts) covers the viewer: its scripts are same-origin files
    staticCSP: false,
    uiConfig: { deepLinking: true, docExpansion: "none", persistAuthorization: false },
  });
  app.get("/api/docs/openapi.json", { schema: { hide: true }, config: { public: true } }, () => app.swagger());
}

/** What a route must declare for the document (and the guard test): one line per gap, empty when complete. */
export function schemaGaps(route: { method: string; url: string; schema: FastifySchema | undefined; config: { requestBody?: unknown } | undefined }): string[] {
  const schema = route.schema ?? {};
  const gaps: string[] = [];
  if (route.url.includes("/:") && !schema.params) gaps.push("params");
  if (["POST", "PUT", "PATCH"].includes(route.method) && !schema.body && !route.config?.requestBody) gaps.push("body (or config.requestBody)");
  if (!schema.response) gaps.push("response");
  return gaps.map((gap) => `${route.method} ${route.url}: no ${gap} schema`);
}
