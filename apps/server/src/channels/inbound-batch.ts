import { cleanMediaType, isWhatsappUserId } from "@atende/shared";
import type { AppContext } from "../core/context.js";
import { AppError } from "../core/errors.js";
import { mediaStorage } from "../core/storage.js";
import type { Sql } from "../db/sql.js";
import { presentContact } from "../domains/contacts/presenter.js";
import * as contactRepo from "../domains/contacts/repository.js";
import { messagePreview, presentMessage } from "../domains/messages/presenter.js";
import { MESSAGE_COLUMNS, MESSAGE_JOINS, type MessageRow } from "../domains/messages/repository.js";
import { sendOutgoing } from "../domains/messages/send-message.js";
import { emitAppMessage } from "../domains/tickets/events.js";
import * as ticketRepo from "../domains/tickets/repository.js";
import { botsAnswer } from "./bots-answer.js";
import type { InboundMessage } from "./driver.js";
import { processInbound, senderKey, type Connection, type InboundPrepared } from "./inbound.js";
import { touchExpiry } from "./routing/expiry.js";
import { decideRoute, ROUTING_COLUMNS, RoutingReads, type RoutingTicket } from "./routing/queue-routing.js";
import { campaignReplyRoutes } from "../domains/campaign-dispatch/replies.js";
import { emitContactEvent } from "../domains/contacts/events.js";

interface NewConversation {
  number: string;
  contactId: number;
  /** The contact was created here (a customer never seen), not a returning one. */
  newContact: boolean;
  ticket: RoutingTicket;
}

/**
 * The tickets of customers without an active ticket, in four statements: the contacts of numbers
 * never seen (`ON CONFLICT DO NOTHING`), the returning customers' contacts (a contact whose message
 * may be a rating reply, or whose WhatsApp ids the message changes, is left to the per-message way,
 * which records them), their tickets (the partial unique index of one active ticket per contact and
 * connection has the last word; their tracking rows come from the triggers of migration 0400), then
 * the tickets locked with what routing reads. Rows go in number order, so deliveries of two
 * connections never deadlock on them.
 */
async function createConversations(
  sql: Sql,
  conn: Connection,
  firsts: InboundMessage[],
  connection: InboundPrepared["connection"],
): Promise<NewConversation[]> {
  const { companyId, whatsappId } = conn;
  // a user id already on another contact (the same person under their number) also leaves the
  // message to the per-message way, which links the two
  const inserted = await sql.many<{ id: number; number: string }>(
    `INSERT INTO contacts (company_id, name, number, is_group, whatsapp_id, wa_id, wa_user_id)
     SELECT $1, v.name, v.number, false, $2, v.wa_id, v.user_id FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) AS v(number, name, wa_id, user_id)
      ORDER BY v.number
     ON CONFLICT DO NOTHING RETURNING id, number`,
    [
      companyId,
      whatsappId,
      firsts.map((m) => senderKey(m)),
      firsts.map((m) => (m.pushName || senderKey(m)).slice(0, 100)),
      firsts.map((m) => (isWhatsappUserId(m.from) ? null : m.from)),
      firsts.map((m) => m.userId ?? (isWhatsappUserId(m.from) ? m.from : null)),
    ],
  );
  const isNew = new Set(inserted.map((c) => c.number));
  const returning = firsts.filter((m) => !isNew.has(senderKey(m)));
  const known = returning.length
    ? await sql.many<{ id: number; number: string; wa_id: string | null; wa_user_id: string | null }>(
        `SELECT c.id, c.number, c.wa_id, c.wa_user_id FROM unnest($2::text[]) AS n(number)
           JOIN contacts c ON c.company_id = $1 AND c.number = n.number
          WHERE NOT EXISTS (SELECT 1 FROM tickets t WHERE t.company_id = $1 AND t.contact_id = c.id AND t.whatsapp_id = $3
                               AND t.status = 'closed' AND t.rating_until IS NOT NULL)`,
        [companyId, returning.map(senderKey), whatsappId],
      )
    : [];
  const messageOf = new Map(returning.map((m) => [senderKey(m), m]));
  const contacts = [...inserted, ...known.filter((c) => !identityChanges(messageOf.get(c.number)!, c))];
  if (!contacts.length) return [];
  const single = connection.queues.length === 1 ? connection.queues[0]!.id : null;
  const created = await sql.many<{ id: number; contact_id: number }>(
    `INSERT INTO tickets (company_id, contact_id, whatsapp_id, status, user_id, queue_id, is_group, origin_from_me, from_me)
     SELECT $1, c, $2, 'pending', NULL, $3::int, false, false, false FROM unnest($4::int[]) AS c ORDER BY c
     ON CONFLICT (company_id, contact_id, whatsapp_id) WHERE status <> 'closed' DO NOTHING
     RETURNING id, contact_id`,
    [companyId, whatsappId, single, contacts.map((c) => c.id).sort((a, b) => a - b)],
  );
  if (!created.length) return [];
  const ids = created.map((t) => t.id);
  const locked = await sql.many<RoutingTicket & { contact_id: number }>(
    `SELECT ${ROUTING_COLUMNS}, contact_id FROM tickets WHERE company_id = $1 AND id = ANY($2::int[]) ORDER BY id FOR UPDATE`,
    [companyId, ids, connection.time_use_bot_queues],
  );
  const numberOf = new Map(contacts.map((c) => [c.id, c.number]));
  return locked.map((t) => ({ number: numberOf.get(t.contact_id)!, contactId: t.contact_id, newContact: isNew.has(numberOf.get(t.contact_id)!), ticket: t }));
}

/** The message names the contact by another form of the number, or a new user id: the per-message way records it. */
function identityChanges(m: InboundMessage, c: { wa_id: string | null; wa_user_id: string | null }): boolean {
  const waId = isWhatsappUserId(m.from) ? c.wa_id : m.from;
  return waId !== c.wa_id || (m.userId !== undefined && m.userId !== c.wa_user_id);
}

/**
 * Many customers' messages of one connection at once (a webhook delivery), in a handful of statements
 * instead of a dozen per message: the conversations' advisory locks (sorted), their contacts and
 * active tickets, the tickets of customers without one, new or returning (createConversations), one
 * multi-row insert, one update of the tickets, the new tickets' routing (its reads shared), then one
 * read of the tickets and one of the messages for the events, and the automatic answers (greeting,
 * menu, out of hours) after the commit. A customer's first message without an active ticket takes
 * this way; their later messages in the same delivery, a ticket waiting in the queue menu, a contact
 * with a rating asked (the message may be the rating) or whose ids the message changes, groups and
 * messages typed on the connection's phone go through processInbound one by one afterwards (routing,
 * greetings, ratings). The messages of one customer keep their order.
 */
export async function processInboundBatch(ctx: AppContext, conn: Connection, msgs: InboundMessage[], prepared: InboundPrepared): Promise<void> {
  const { companyId, whatsappId } = conn;
  const candidates = msgs.filter((m) => !m.isGroup && !m.fromMe && !prepared.ownNumbers.has(senderKey(m)));
  const others = msgs.filter((m) => !candidates.includes(m));
  const storage = mediaStorage(ctx.config.dataDir);
  const paths = new Map<InboundMessage, string>();
  for (const m of candidates) {
    if (m.media) paths.set(m, await storage.put(companyId, m.media.data, { fileName: m.media.fileName, mimetype: m.media.mimetype }));
  }

  const stored = await ctx.sql.tx(async (sql) => {
    const numbers = [...new Set(candidates.map(senderKey))].sort();
    if (!numbers.length) return null;
    // with the locks, this transaction takes over the message-words trigger (migration 0821): the
    // words go into the tickets' one UPDATE below, one row version per ticket instead of two
    await sql.exec(
      `SELECT pg_advisory_xact_lock(727100, hashtext(k)) FROM (SELECT $1::text || ':' || n AS k FROM unnest($2::text[]) n ORDER BY 1) x,
              (SELECT set_config('atende.words_by_caller', 'on', true)) flag`,
      [String(whatsappId), numbers],
    );
    const tickets = await sql.many<{
      id: number;
      number: string;
      wa_id: string | null;
      wa_user_id: string | null;
      contact_id: number;
      status: string;
      chatbot: boolean;
      queue_id: number | null;
    }>(
      // from the numbers, one index probe each (a plan that holds before the tables have statistics)
      `SELECT t.id, c.number, c.wa_id, c.wa_user_id, t.contact_id, t.status, t.chatbot, t.queue_id
         FROM unnest($2::text[]) AS n(number)
         JOIN contacts c ON c.company_id = $1 AND c.number = n.number
         JOIN tickets t ON t.company_id = $1 AND t.contact_id = c.id AND t.whatsapp_id = $3 AND t.status <> 'closed'
        FOR UPDATE OF t`,
      [companyId, numbers, whatsappId],
    );
    // a ticket the contact is choosing a queue in is routed message by message
    const fast = new Map<string, { id: number; number: string; contact_id: number; status: string; chatbot: boolean; queue_id: number | null }>(
      tickets.filter((t) => !(t.chatbot && t.queue_id === null)).map((t) => [t.number, t]),
    );
    // a contact whose WhatsApp ids the message updates (another form of the number, a new user id) is
    // handled by the per-message way, which records them
    const ticketOf = new Map(tickets.map((t) => [t.number, t]));
    const stale = new Set(
      candidates
        .filter((m) => {
          const t = ticketOf.get(senderKey(m));
          return t !== undefined && identityChanges(m, t);
        })
        .map(senderKey),
    );
    for (const key of stale) fast.delete(key);
    // customers without an active ticket (never seen, or returning): the ticket (and a new customer's
    // contact) created here, their first message routed below (the rest of their messages follow
    // through the per-message way, which sees the routed ticket)
    const known = new Set(tickets.map((t) => t.number));
    const firsts = new Map<string, InboundMessage>();
    for (const m of candidates) if (!known.has(senderKey(m)) && !firsts.has(senderKey(m))) firsts.set(senderKey(m), m);
    const fresh = firsts.size ? await createConversations(sql, conn, [...firsts.values()], prepared.connection) : [];
    const freshByNumber = new Map(fresh.map((f) => [f.number, f]));
    for (const f of fresh) fast.set(f.number, { id: f.ticket.id, number: f.number, contact_id: f.contactId, status: f.ticket.status, chatbot: false, queue_id: null });
    const mine = candidates.filter((m) => (freshByNumber.has(senderKey(m)) ? firsts.get(senderKey(m)) === m : fast.has(senderKey(m))));
    const none = { mine, rows: [] as { id: number; ticket_id: number }[], contacts: [] as number[], created: [] as number[], sends: new Map<number, string[]>() };
    if (!mine.length) return none;

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
                             mimetype, ack, read, quoted_msg_id, created_at, referral, media_unavailable, unsupported)
       SELECT $1, v.ticket_id, v.contact_id, $2, v.provider_id, v.body, false, v.media_type, v.media_path, v.media_name, v.mimetype, 0, false, v.quoted,
              LEAST(COALESCE(v.created_at, now()), now()), v.referral, v.media_unavailable, v.unsupported
         FROM unnest($3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::bigint[],
                     $12::timestamptz[], $13::jsonb[], $14::boolean[], $15::boolean[])
              WITH ORDINALITY AS v(ticket_id, contact_id, provider_id, body, media_type, media_path, media_name, mimetype, quoted,
                                   created_at, referral, media_unavailable, unsupported, ord)
        ORDER BY v.ord
       ON CONFLICT (company_id, whatsapp_id, provider_id) WHERE provider_id IS NOT NULL DO NOTHING
       RETURNING id, ticket_id, provider_id`,
      [
        companyId,
        whatsappId,
        mine.map((m) => fast.get(senderKey(m))!.id),
        mine.map((m) => fast.get(senderKey(m))!.contact_id),
        mine.map((m) => m.providerId),
        mine.map((m) => m.body),
        mine.map((m) => m.mediaType),
        mine.map((m) => paths.get(m) ?? null),
        mine.map((m) => m.media?.fileName ?? null),
        mine.map((m) => (m.media ? cleanMediaType(m.media.mimetype) : null)),
        mine.map((m) => (m.quotedProviderId ? (quoted.get(m.quotedProviderId) ?? null) : null)),
        mine.map((m) => m.timestamp ?? null),
        mine.map((m) => (m.referral ? JSON.stringify(m.referral) : null)),
        mine.map((m) => Boolean(m.mediaUnavailable)),
        mine.map((m) => Boolean(m.unsupported)),
      ],
    );
    rows.sort((a, b) => a.id - b.id);
    // each ticket: its newest message, and one more unread per message
    const byProvider = new Map(mine.map((m) => [m.providerId, m]));
    const last = new Map<number, { id: number; preview: string; n: number; bodies: string[] }>();
    for (const r of rows) {
      const m = byProvider.get(r.provider_id)!;
      const previous = last.get(r.ticket_id);
      const preview = messagePreview(m.body, m.mediaType, m.media?.fileName, m.unsupported).slice(0, 1000);
      last.set(r.ticket_id, { id: r.id, preview, n: (previous?.n ?? 0) + 1, bodies: [...(previous?.bodies ?? []), m.body] });
    }
    if (last.size) {
      const v = [...last.values()];
      await sql.exec(
        `UPDATE tickets t SET last_message = v.preview, last_message_at = now(), last_message_id = v.mid, from_me = false,
                unread_messages = t.unread_messages + v.n, updated_at = now(),
                search_words = t.search_words || message_search_words(v.bodies)
           FROM unnest($2::int[], $3::text[], $4::bigint[], $5::int[], $6::text[]) AS v(tid, preview, mid, n, bodies)
          WHERE t.company_id = $1 AND t.id = v.tid`,
        [companyId, [...last.keys()], v.map((x) => x.preview), v.map((x) => x.id), v.map((x) => x.n), v.map((x) => x.bodies.join(" "))],
      );
      for (const ticketId of last.keys()) await touchExpiry(ctx, sql, companyId, ticketId, prepared.connection.expires_ticket);
    }
    // the new tickets' routing (greeting, queue menu, out of hours), as processInbound does
    const sends = new Map<number, string[]>();
    // what routing reads, once for them all (the campaign routes of every new ticket in one statement)
    const routes = await campaignReplyRoutes(sql, companyId, whatsappId, fresh.map((f) => f.number));
    const now = new Date();
    const reads = new RoutingReads(sql, companyId, now, new Map(fresh.flatMap((f) => (routes.has(f.number) ? [[f.ticket.id, routes.get(f.number)!]] : []))));
    for (const f of fresh) {
      const decision = await decideRoute(sql, f.ticket, prepared.connection, firsts.get(f.number)!.body, true, now, reads);
      if (Object.keys(decision.patch).length) await ticketRepo.updateTicket(sql, companyId, f.ticket.id, decision.patch);
      if (decision.sends.length) sends.set(f.ticket.id, decision.sends);
    }
    return { ...none, rows, contacts: fresh.filter((f) => f.newContact).map((f) => f.contactId), created: fresh.map((f) => f.ticket.id), sends };
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
    const contacts = stored.contacts.length ? await contactRepo.findContacts(ctx.sql, companyId, stored.contacts) : [];
    for (const c of contacts) emitContactEvent(ctx, companyId, { action: "create", contact: presentContact(c) });
    // new tickets reach their audience with their first message (appMessage carries the ticket)
    for (const m of messages) {
      const t = ticketById.get(m.ticket_id);
      if (t) await emitAppMessage(ctx, "create", presentMessage(m), t);
    }
    // automatic answers after the commit, each customer's in order, before their next messages
    await Promise.all(
      [...stored.sends].map(async ([ticketId, texts]) => {
        const ticket = ticketById.get(ticketId);
        if (!ticket) return;
        for (const text of texts) {
          try {
            await sendOutgoing(ctx, { ticket, body: text, userId: null });
          } catch (err) {
            // the customer's message is stored; an automatic answer that cannot go out is only logged
            if (!(err instanceof AppError)) ctx.log.error({ err, ticketId, companyId: ticket.company_id }, "automatic message failed");
          }
        }
      }),
    );
    // the new tickets' bots or AI prompts answer their first message, as processInbound does
    const lastOf = new Map<number, number>();
    for (const r of stored.rows) lastOf.set(r.ticket_id, Math.max(lastOf.get(r.ticket_id) ?? 0, Number(r.id)));
    for (const ticketId of stored.created) {
      const ticket = ticketById.get(ticketId);
      const messageId = lastOf.get(ticketId);
      if (ticket && messageId) await botsAnswer(ctx, ticket, messageId);
    }
  }

  // everyone else, one message at a time and in order per customer
  const taken = new Set(stored?.mine ?? []);
  const rest = [...others, ...candidates.filter((m) => !taken.has(m))];
  const byCustomer = new Map<string, InboundMessage[]>();
  for (const m of msgs) if (rest.includes(m)) byCustomer.set(senderKey(m), [...(byCustomer.get(senderKey(m)) ?? []), m]);
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
