import { z } from "zod";
import { message } from "./messages.js";

/**
 * POST /api/messages/send (the external messages API, 2-administration "Messages API" page):
 * `Authorization: Bearer <connection token>`; JSON `{ number, body }` or multipart `number` +
 * `medias` (files; `body` optional, the first file's caption).
 */
export const externalSendInput = z.object({
  number: z.string({ error: "Digite um número de telefone válido" }).trim().min(1, "Digite um número de telefone válido").max(30).describe("Digits with country code, e.g. 5511999990000"),
  body: z.string().max(10000).default("").describe("Text; with files, the first file's caption"),
});
export type ExternalSendInput = z.input<typeof externalSendInput>;

export const externalSendResponse = z.object({
  message: z.string(),
  ticketId: z.number(),
  contactId: z.number(),
  messages: z.array(message),
});
export type ExternalSendResponse = z.infer<typeof externalSendResponse>;

/** Requests per minute per connection token. */
export const EXTERNAL_API_RATE_PER_MINUTE = 120;
/** Wrong or missing tokens per minute per client address before every call from it answers 429. */
export const EXTERNAL_API_BAD_TOKENS_PER_MINUTE = 10;
