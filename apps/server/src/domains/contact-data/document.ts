import type { Collected, ContactRow } from "./repository.js";

/**
 * The LGPD export's content (the machine-readable part, `dados.json`, and the source of the readable
 * page): what the company stores about the person, in the product's words. No internal ids, keys or
 * column names; instants in ISO 8601 (UTC); the company's time zone says how the page shows them.
 */
export interface PersonalDataDocument {
  format: "atende.dados-pessoais/1";
  exportedAt: string;
  company: { name: string; timeZone: string };
  contact: { name: string; number: string; email: string; document: string; extraInfo: { name: string; value: string }[]; createdAt: string; erasedAt: string | null };
  tickets: {
    status: string;
    queue: string | null;
    agent: string | null;
    connection: string | null;
    tags: string[];
    openedAt: string;
    closedAt: string | null;
    rating: number | null;
    messages: { at: string; from: "contact" | "agent"; agent: string | null; text: string; attachment: { type: string; name: string | null } | null; deleted: boolean; edited: boolean; erased: boolean }[];
    notes: { at: string; author: string | null; text: string }[];
  }[];
  schedules: { sendAt: string; status: string; text: string; attachment: string | null; sentAt: string | null; createdAt: string }[];
  campaigns: { channel: "whatsapp" | "sms" | "email"; campaign: string; address: string; state: string; sentAt: string | null; deliveredAt: string | null; readAt: string | null; failedAt: string | null }[];
  optOuts: { channel: "sms" | "email"; address: string; source: string; at: string }[];
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function buildDocument(contact: ContactRow, rows: Collected, exportedAt: Date): PersonalDataDocument {
  const messagesOf = (ticketId: number) =>
    rows.messages
      .filter((m) => m.ticket_id === ticketId)
      .map((m) => ({
        at: m.created_at.toISOString(),
        from: m.from_me ? ("agent" as const) : ("contact" as const),
        agent: m.from_me ? m.agent : null,
        text: m.body,
        attachment: m.media_type === "chat" ? null : { type: m.media_type, name: m.media_name },
        deleted: m.is_deleted,
        edited: m.is_edited,
        erased: m.erased,
      }));
  return {
    format: "atende.dados-pessoais/1",
    exportedAt: exportedAt.toISOString(),
    company: { name: rows.company.name, timeZone: rows.company.time_zone },
    contact: {
      name: contact.name,
      number: contact.number,
      email: contact.email,
      document: contact.document,
      extraInfo: (contact.extra_info ?? []).map((e) => ({ name: String(e.name ?? ""), value: String(e.value ?? "") })),
      createdAt: contact.created_at.toISOString(),
      erasedAt: iso(contact.erased_at),
    },
    tickets: rows.tickets.map((t) => ({
      status: t.status,
      queue: t.queue,
      agent: t.agent,
      connection: t.connection,
      tags: t.tags,
      openedAt: t.created_at.toISOString(),
      closedAt: iso(t.closed_at),
      rating: t.rating,
      messages: messagesOf(t.id),
      notes: rows.notes.filter((n) => n.ticket_id === t.id).map((n) => ({ at: n.created_at.toISOString(), author: n.author, text: n.note })),
    })),
    schedules: rows.schedules.map((s) => ({
      sendAt: s.send_at.toISOString(),
      status: s.status,
      text: s.body,
      attachment: s.media_name,
      sentAt: iso(s.sent_at),
      createdAt: s.created_at.toISOString(),
    })),
    campaigns: rows.campaignRows.map((r) => ({
      channel: r.channel,
      campaign: r.campaign,
      address: r.channel === "email" ? r.email : r.phone,
      state: r.state,
      sentAt: iso(r.sent_at),
      deliveredAt: iso(r.delivered_at),
      readAt: iso(r.read_at),
      failedAt: iso(r.failed_at),
    })),
    optOuts: rows.optOuts.map((o) => ({ channel: o.channel, address: o.address, source: o.source, at: o.created_at.toISOString() })),
  };
}
