import type { AppContext } from "../core/context.js";
import type { Sql } from "../db/sql.js";
import type { InboundMessage, WhatsappDriver } from "./driver.js";
import type { LeaseFence } from "./ownership.js";

/** What the inbound pipeline made of one message (the sandbox's inbound endpoint answers with it). */
export interface InboundResult {
  messageId: number;
  ticketId: number;
  contactId: number;
  duplicate: boolean;
  /** Not stored: the sender is one of the company's own connection numbers (ERR_CONTACT_IS_WHATSAPP). */
  ignored?: boolean;
  /** Stored as the 1-5 rating of the contact's last closed ticket (`ticketId`), not as a new ticket. */
  rating?: number;
}

/**
 * Where the channel layer hands its traffic: the drivers' events in (a message, an ack, an edit, a
 * deletion) and the queued outbox out. The channel manager knows only this shape; the messages and
 * tickets domains behind it are wired in once at boot (app.ts `useChannelSink`), so the channels do
 * not import the domains that import them (docs/architecture.md "Channels").
 */
export interface ChannelSink {
  message(ctx: AppContext, conn: { companyId: number; whatsappId: number }, message: InboundMessage): Promise<InboundResult>;
  ack(ctx: AppContext, companyId: number, whatsappId: number, providerId: string, ack: number): Promise<void>;
  edit(ctx: AppContext, companyId: number, whatsappId: number, providerId: string, body: string): Promise<boolean>;
  revoke(ctx: AppContext, companyId: number, whatsappId: number, providerId: string): Promise<boolean>;
  /** Claims up to `limit` queued outgoing messages of the fenced connection. */
  claimQueued(sql: Sql, fence: LeaseFence, limit: number): Promise<{ id: number; company_id: number }[]>;
  /** Sends one claimed message through the driver and records the outcome on it. */
  deliverQueued(ctx: AppContext, driver: WhatsappDriver, companyId: number, id: number): Promise<void>;
  /** Marks the connection's messages whose send was cut off by a restart. */
  failInterrupted(ctx: AppContext, whatsappId: number): Promise<void>;
}

let sink: ChannelSink | null = null;

/** Wires the channel layer to the domains that store its traffic (once per process, at boot). */
export function useChannelSink(s: ChannelSink): void {
  sink = s;
}

export function channelSink(): ChannelSink {
  if (!sink) throw new Error("the channel sink is not wired (app.ts useChannelSink)");
  return sink;
}
