import type { GraphClient } from "../../channels/cloud-api/graph-client.js";
import { cloudSender, toInboundMessage, type ToInboundOptions } from "../../channels/cloud-api/inbound-message.js";
import type { CloudMessage } from "../../channels/cloud-api/webhook-types.js";
import type { InboundMessage } from "../../channels/driver.js";
import { applyEdit, applyReaction, applyRevoke } from "../../channels/inbound.js";
import type { AppContext } from "../../core/context.js";
import { contactKeys } from "../../core/phone.js";
import type { Sql } from "../../db/sql.js";

interface Target {
  companyId: number;
  whatsappId: number;
}

/** Whether the contact's own message (not one sent to them) with this provider id is stored: only those may be edited or revoked by them. */
async function ownMessageStored(sql: Sql, target: Target, providerId: string, sender: { from: string; userId?: string }): Promise<boolean> {
  const row = await sql.maybe<{ id: number }>(
    `SELECT m.id FROM messages m JOIN contacts c ON c.company_id = m.company_id AND c.id = m.contact_id
      WHERE m.company_id = $1 AND m.whatsapp_id = $2 AND m.provider_id = $3 AND NOT m.from_me
        AND (c.number = ANY($4::text[]) OR c.wa_user_id = $5)`,
    [target.companyId, target.whatsappId, providerId, contactKeys(sender.from), sender.userId ?? sender.from],
  );
  return row !== null;
}

/** The text of an edited message: its new text, or its media's new caption. */
function editedText(m: Partial<CloudMessage>): string | null {
  if (m.text?.body !== undefined) return m.text.body;
  for (const kind of ["image", "video", "document"] as const) if (m[kind]?.caption !== undefined) return m[kind]!.caption!;
  return null;
}

/**
 * Reactions, edits and revokes change the message they name, in delivery order. When that message is
 * not stored here (sent outside this app, older than its history, a contact never seen), nothing is
 * lost: a reaction and an edit's new content are returned as messages of their own (the caller stores
 * them like any other, which opens a ticket for a new contact); a revoke of an unknown message has
 * nothing left to show.
 */
export async function applyCloudUpdates(
  ctx: AppContext,
  target: Target,
  updates: CloudMessage[],
  nameOf: (sender: { from: string; userId?: string }) => string,
  graph: () => GraphClient,
  opts: ToInboundOptions = {},
): Promise<InboundMessage[]> {
  const { companyId, whatsappId } = target;
  const orphans: InboundMessage[] = [];
  for (const m of updates) {
    const sender = cloudSender(m);
    if (!sender) continue;
    const { from } = sender;
    const pushName = nameOf(sender);
    const timestamp = m.timestamp && Number(m.timestamp) > 0 ? new Date(Number(m.timestamp) * 1000) : undefined;
    if (m.type === "reaction") {
      const targetId = m.reaction?.message_id;
      const emoji = m.reaction?.emoji ?? "";
      if (targetId && (await applyReaction(ctx, companyId, whatsappId, targetId, { from, emoji }))) continue;
      if (emoji) orphans.push({ providerId: m.id, ...sender, pushName, body: emoji, mediaType: "chat", quotedProviderId: targetId, timestamp });
      continue;
    }
    if (m.type === "edit") {
      const targetId = m.edit?.original_message_id;
      const content = m.edit?.message ?? {};
      const text = editedText(content);
      if (targetId && (await ownMessageStored(ctx.sql, target, targetId, sender))) {
        if (text !== null) await applyEdit(ctx, companyId, whatsappId, targetId, text);
        continue;
      }
      const inner = { ...content, from: m.from, from_user_id: m.from_user_id, id: m.id, timestamp: m.timestamp, type: content.type ?? "text" } as CloudMessage;
      const message = await toInboundMessage(inner, pushName, graph, { ...opts, log: ctx.log });
      if (message) orphans.push(message);
      continue;
    }
    const revoked = m.type === "revoke" ? m.revoke?.original_message_id : undefined;
    if (revoked && (await ownMessageStored(ctx.sql, target, revoked, sender))) await applyRevoke(ctx, companyId, whatsappId, revoked);
  }
  return orphans;
}
