import { z } from "zod";
import { UPLOAD_MEDIA_TYPES } from "../media-types.js";

/** POST /upload's answer: the stored file, read back at `url` by the same company only. */
export const uploadedFile = z.object({
  id: z.number().describe("The upload's id, unique in the company"),
  fileName: z.string().describe("The name the file was sent with"),
  mimetype: z.enum(UPLOAD_MEDIA_TYPES).describe("The type its first bytes show (not the declared one)"),
  size: z.number().describe("Bytes"),
  url: z.string().describe("GET it (with the bearer token) to read the file: /api/upload/{id}"),
});
export type UploadedFile = z.infer<typeof uploadedFile>;
