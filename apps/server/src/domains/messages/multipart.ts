import type { FastifyRequest } from "fastify";
import { LIMITS } from "@atende/shared";
import type { z } from "zod";
import { AppError } from "../../core/errors.js";
import type { OutgoingFile } from "./send-message.js";

export interface MultipartBody {
  fields: Record<string, string>;
  files: (OutgoingFile & { field: string })[];
}

/** Reads a multipart request into memory: text fields and files (10 MB in total). */
export async function readMultipart(request: FastifyRequest): Promise<MultipartBody> {
  const fields: Record<string, string> = {};
  const files: MultipartBody["files"] = [];
  let total = 0;
  for await (const part of request.parts()) {
    if (part.type === "file") {
      const data = await part.toBuffer();
      total += data.length;
      if (total > LIMITS.attachmentMaxBytes) throw new AppError("ERR_PAYLOAD_TOO_LARGE", "O arquivo excede o tamanho máximo de 10MB");
      if (data.length === 0 && !part.filename) continue;
      files.push({ field: part.fieldname, data, fileName: part.filename || "arquivo", mimetype: part.mimetype || "application/octet-stream" });
    } else {
      fields[part.fieldname] = String(part.value ?? "");
    }
  }
  return { fields, files };
}

/** Validates like a route schema does: 400 ERR_VALIDATION with the failing fields. */
export function parseOrThrow<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) fields[issue.path.join(".") || "_"] = issue.message;
  const first = Object.entries(fields)[0];
  throw new AppError("ERR_VALIDATION", first ? `${first[0]}: ${first[1]}` : "Invalid request", { fields });
}
