import { proto, type WAMessage, type WAMessageKey } from "baileys";
import type { Sql } from "../../db/sql.js";

export interface StoredMessage {
  key: WAMessageKey;
  message: proto.IMessage;
}

/** How long messages stay for retries and quotes. */
export const MESSAGE_STORE_DAYS = 14;

/**
 * Recent messages of one connection by provider id: what the library's `getMessage` returns when a
 * recipient's phone asks for a message again (retry receipts), and what a reply quotes. A small LRU
 * in memory answers most calls; PostgreSQL (baileys_messages) keeps them across restarts.
 */
export class MessageStore {
  private readonly recent = new Map<string, StoredMessage>();

  constructor(
    private readonly sql: Sql,
    private readonly companyId: number,
    private readonly whatsappId: number,
    private readonly capacity = 500,
  ) {}

  private remember(id: string, entry: StoredMessage): void {
    this.recent.delete(id);
    this.recent.set(id, entry);
    while (this.recent.size > this.capacity) {
      const oldest = this.recent.keys().next().value;
      if (oldest === undefined) break;
      this.recent.delete(oldest);
    }
  }

  async save(msg: WAMessage): Promise<void> {
    const id = msg.key.id;
    if (!id || !msg.message || !msg.key.remoteJid) return;
    const key: WAMessageKey = { remoteJid: msg.key.remoteJid, fromMe: Boolean(msg.key.fromMe), id, participant: msg.key.participant ?? undefined };
    this.remember(id, { key, message: msg.message });
    const bytes = Buffer.from(proto.Message.encode(proto.Message.fromObject(msg.message)).finish());
    await this.sql.exec(
      `INSERT INTO baileys_messages (company_id, whatsapp_id, provider_id, remote_jid, from_me, participant, message)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (company_id, whatsapp_id, provider_id) DO UPDATE SET message = EXCLUDED.message`,
      [this.companyId, this.whatsappId, id, key.remoteJid, key.fromMe, key.participant ?? null, bytes],
    );
  }

  async get(id: string): Promise<StoredMessage | undefined> {
    const cached = this.recent.get(id);
    if (cached) return cached;
    const row = await this.sql.maybe<{ remote_jid: string; from_me: boolean; participant: string | null; message: Buffer }>(
      `SELECT remote_jid, from_me, participant, message FROM baileys_messages
        WHERE company_id = $1 AND whatsapp_id = $2 AND provider_id = $3`,
      [this.companyId, this.whatsappId, id],
    );
    if (!row) return undefined;
    const entry: StoredMessage = {
      key: { remoteJid: row.remote_jid, fromMe: row.from_me, id, participant: row.participant ?? undefined },
      message: proto.Message.decode(row.message),
    };
    this.remember(id, entry);
    return entry;
  }

  /** The library's getMessage (retry requests). */
  async getMessage(key: WAMessageKey): Promise<proto.IMessage | undefined> {
    if (!key.id) return undefined;
    return (await this.get(key.id))?.message;
  }

  async prune(days = MESSAGE_STORE_DAYS): Promise<void> {
    await this.sql.exec(
      "DELETE FROM baileys_messages WHERE company_id = $1 AND whatsapp_id = $2 AND created_at < now() - make_interval(days => $3)",
      [this.companyId, this.whatsappId, days],
    );
  }

  async clear(): Promise<void> {
    this.recent.clear();
    await this.sql.exec("DELETE FROM baileys_messages WHERE company_id = $1 AND whatsapp_id = $2", [this.companyId, this.whatsappId]);
  }
}
