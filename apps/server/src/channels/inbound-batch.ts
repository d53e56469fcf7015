import type { AppContext } from "../core/context.js";
import { mediaStorage } from "../core/storage.js";
import { messagePreview, presentMessage } from "../domains/messages/presenter.js";
import { MESSAGE_COLUMNS, MESSAGE_JOINS, type MessageRow } from "../domains/messages/repository.js";
import { emitAppMessage } from "../domains/tickets/events.js";
import * as ticketRepo from "../domains/tickets/repository.js";
import type { InboundMessage } from "./driver.js";
import { processInbound, type Connection, type InboundPrepared } from "./inbound.js";
import { touchExpiry } from "./routing/expiry.js";

/**
 * Many customers' messages of one connection at once (a webhook delivery), in a handful of statements
 * instead of a dozen per message: the conversations' advisory locks (sorted), their contacts and
 * active tickets, one multi-row insert, one update of the tickets, then one read of the tickets and one
 * of the messages for the events. Only customers whose ticket needs nothing but the message take this
 * way: a new ticket, a ticket waiting in the queue menu, a possible rating reply, groups and messages
 * typed on the connection's phone go through processInbound one by one (routing, greetings, ratings).
 * The messages of one customer keep their order either way.
 */
export async function processInboundBatch(ctx: AppContext, conn: Connection, msgs: InboundMessage[], prepared: InboundPrepared): Promise<void> {
  const { companyId, whatsappId } = conn;
  const candidates = msgs.filter((m) => !m.isGroup && !m.fromMe && !prepared.ownNumbers.has(m.from));
  const others = msgs.filter((m) => !candidates.includes(m));
  const storage = mediaStorage(ctx.config.dataDir);
  const paths = new Map<InboundMessage, string>();
  for (const m of candidates) {
    if (m.media) paths.set(m, await storage.put(companyId, m.media.data, { fileName: m.media.fileName, mimetype: m.media.mimetype }));
  }

  const stored = await ctx.sql.tx(async (sql) => {
    const numbers = [...new Set(candidates.map((m) => m.from))].sort();
    if (!numbers.length) return null;
    await sql.exec("SELECT pg_advisory_xact_lock(727100, hashtext(k)) FROM (SELECT $1::text || ':' || n AS k FROM unnest($2::text[]) n ORDER BY 1) x", [
      String(whatsappId),
      numbers,
    ]);
    const tickets = await sql.many<{ id: number; number: string; contact_id: number; status: string; chatbot: boolean; queue_id: number | null }>(
      `SELECT t.id, c.number, t.contact_id, t.status, t.chatbot, t.queue_id
         FROM contacts c JOIN tickets t ON t.company_id = c.company_id AND t.contact_id = c.id AND t.whatsapp_id = $3 AND t.status <> 'closed'
        WHERE c.company_id = $1 AND c.number = ANY($2::text[])
        FOR UPDATE OF t`,
      [companyId, numbers, whatsappId],
    );
    // a ticket the contact is choosing a queue in is routed message by message
    const fast = new Map(tickets.filter((t) => !(t.chatbot && t.queue_id === null)).map((t) => [t.number, t]));
    const mine = candidates.filter((m) => fast.has(m.from));
    if (!mine.length) return { mine, rows: [] as { id: number; ticket_id: number }[] };

    const quoted = new Map<string, number>();
    const quotes = [...new Set(mine.map((m) => m.quotedProviderId).filter((q): q is string => Boolean(q)))];
    if (quotes.length) {
      const rows = await sql.many<{ id: number; provider_id: string }>(
        "SELECT id, provider_id FROM messages WHERE company_id = $1 AND whatsapp_id = $2 AND provider_id = ANY($3::text[])",
        [companyId, whatsappId, quotes],
      );
      for (const r of rows) quoted.set(r.provider_id, r.id);
    }
    const rows = await sql.many<{ id: number; ticket_id: number; provider_id: string }>(
      `INSERT INTO messages (company_id, ticket_id, contact_id, whatsapp_id, provider_id, body, from_me, media_type, media_path, media_name,
                             mimetype, ack, read, quoted_msg_id)
       SELECT $1, v.ticket_id, v.contact_id, $2, v.provider_id, v.body, false, v.media_type, v.media_path, v.media_name, v.mimetype, 0, false, v.quoted
         FROM unnest($3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::bigint[])
              WITH ORDINALITY AS v(ticket_id, contact_id, provider_id, body, media_type, media_path, media_name, mimetype, quoted, ord)
        ORDER BY v.ord
       ON CONFLICT (whatsapp_id, provider_id) WHERE provider_id IS NOT NULL DO NOTHING
       RETURNING id, ticket_id, provider_id`,
      [
        companyId,
        whatsappId,
        mine.map((m) => fast.get(m.from)!.id),
        mine.map((m) => fast.get(m.from)!.contact_id),
        mine.map((m) => m.providerId),
        mine.map((m) => m.body),
        mine.map((m) => m.mediaType),
        mine.map((m) => paths.get(m) ?? null),
        mine.map((m) => m.media?.fileName ?? null),
        mine.map((m) => m.media?.mimetype ?? null),
        mine.map((m) => (m.quotedProviderId ? (quoted.get(m.quotedProviderId) ?? null) : null)),
      ],
    );
    rows.sort((a, b) => a.id - b.id);
    // each ticket: its newest message, and one more unread per message
    const byProvider = new Map(mine.map((m) => [m.providerId, m]));
    const last = new Map<number, { id: number; preview: string; n: number }>();
    for (const r of rows) {
      const m = byProvider.get(r.provider_id)!;
      const previous = last.get(r.ticket_id);
      last.set(r.ticket_id, { id: r.id, preview: messagePreview(m.body, m.mediaType, m.media?.fileName).slice(0, 1000), n: (previous?.n ?? 0) + 1 });
    }
    if (last.size) {
      await sql.exec(
        `UPDATE tickets t SET last_message = v.preview, last_message_at = now(), last_message_id = v.mid, from_me = false,
                unread_messages = t.unread_messages + v.n, updated_at = now()
           FROM unnest($2::int[], $3::text[], $4::bigint[], $5::int[]) AS v(tid, preview, mid, n)
          WHERE t.company_id = $1 AND t.id = v.tid`,
        [companyId, [...last.keys()], [...last.values()].map((v) => v.preview), [...last.values()].map((v) => v.id), [...last.values()].map((v) => v.n)],
      );
      for (const ticketId of last.keys()) await touchExpiry(ctx, sql, companyId, ticketId, prepared.connection.expires_ticket);
    }
    return { mine, rows };
  });

  if (stored?.rows.length) {
    const ticketIds = [...new Set(stored.rows.map((r) => r.ticket_id))];
    const [tickets, messages] = await Promise.all([
      ticketRepo.ticketsByIds(ctx.sql, companyId, ticketIds),
      ctx.sql.many<MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM messages m ${MESSAGE_JOINS} WHERE m.company_id = $1 AND m.id = ANY($2::bigint[]) ORDER BY m.id`, [
        companyId,
        stored.rows.map((r) => r.id),
      ]),
    ]);
    const ticketById = new Map(tickets.map((t) => [t.id, t]));
    for (const m of messages) {
      const t = ticketById.get(m.ticket_id);
      if (t) await emitAppMessage(ctx, "create", presentMessage(m), t);
    }
  }

  // everyone else, one message at a time and in order per customer
  const taken = new Set(stored?.mine ?? []);
  const rest = [...others, ...candidates.filter((m) => !taken.has(m))];
  const byCustomer = new Map<string, InboundMessage[]>();
  for (const m of msgs) if (rest.includes(m)) byCustomer.set(m.from, [...(byCustomer.get(m.from) ?? []), m]);
  let failure: unknown = null;
  await Promise.all(
    [...byCustomer.values()].map(async (list) => {
      for (const m of list) {
        try {
          await processInbound(ctx, conn, m, prepared);
        } catch (err) {
          failure ??= err;
        }
      }
    }),
  );
  if (failure) throw failure;
}
