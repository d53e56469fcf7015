import { z } from "zod";

/**
 * The parts of a delivery's structure processing walks through (webhook-types.ts describes the rest).
 * A delivery Meta signed can still be malformed (a changed format, a bug at the sender): it is refused
 * here, as a whole and before any of it is applied, with a readable reason kept on its row.
 */
const change = z.object({ field: z.string().optional(), value: z.record(z.string(), z.unknown()).optional() });
const delivery = z.object({ entry: z.array(z.object({ changes: z.array(change).optional() })).optional() });
const messagesValue = z.object({
  contacts: z.array(z.record(z.string(), z.unknown())).optional(),
  messages: z.array(z.record(z.string(), z.unknown())).optional(),
  statuses: z.array(z.record(z.string(), z.unknown())).optional(),
});

export class MalformedDelivery extends Error {}

/** Throws MalformedDelivery (with where and why) unless the delivery has the shape processing relies on. */
export function checkDeliveryShape(payload: unknown): void {
  const parsed = delivery.safeParse(payload);
  if (!parsed.success) throw new MalformedDelivery(`Entrega malformada: ${z.prettifyError(parsed.error)}`);
  for (const entry of parsed.data.entry ?? []) {
    for (const c of entry.changes ?? []) {
      if (c.field !== "messages") continue;
      const value = messagesValue.safeParse(c.value ?? {});
      if (!value.success) throw new MalformedDelivery(`Entrega malformada (messages): ${z.prettifyError(value.error)}`);
    }
  }
}
