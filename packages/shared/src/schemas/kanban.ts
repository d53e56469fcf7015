import { z } from "zod";
import { ticket } from "./tickets.js";

/** Toasts of the kanban moves (2-administration §8), sent as the response message. */
export const KANBAN_MESSAGES = {
  added: "Ticket Tag Adicionado com Sucesso!",
  removed: "Ticket Tag Removido!",
} as const;

/** The board shows at most this many tickets (most recently updated first). */
export const KANBAN_MAX_TICKETS = 1000;

/** queueIds as the web sends lists: a JSON array ("[1,2]"), a comma list or one id. */
const queueIdList = z.preprocess((v) => {
  if (v === undefined || v === null || v === "") return undefined;
  if (Array.isArray(v)) return v;
  const s = String(v).trim();
  if (s.startsWith("[")) {
    try {
      return JSON.parse(s) as unknown;
      // eslint-disable-next-line no-restricted-syntax -- not JSON: the text goes on to the array schema, which refuses it (ERR_VALIDATION)
    } catch {
      return s;
    }
  }
  return s.split(",").map((x) => x.trim()).filter(Boolean);
}, z.array(z.coerce.number().int().positive()).max(500).optional());

/** GET /ticket/kanban: open and pending tickets visible to the user, in the given queues (and without a queue). */
export const kanbanQuery = z.object({ queueIds: queueIdList });

export const kanbanResponse = z.object({ tickets: z.array(ticket) });
export type KanbanResponse = z.infer<typeof kanbanResponse>;

export const ticketTagParams = z.object({
  ticketId: z.coerce.number().int().positive(),
  tagId: z.coerce.number().int().positive(),
});
export const ticketTagsParams = z.object({ ticketId: z.coerce.number().int().positive() });

export const ticketTagResponse = z.object({ message: z.string(), ticket });
