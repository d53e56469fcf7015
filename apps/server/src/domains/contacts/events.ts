import { channel, type Contact } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { rooms } from "../../core/realtime.js";

export type ContactEvent = { action: "create" | "update"; contact: Contact } | { action: "delete"; contactId: number };

/**
 * `company-{id}-contact`: a new contact matters only to the screens listing contacts (the contacts
 * page joins its room), not to every agent of the company — a new customer's first message reaches
 * the agents as `appMessage`, which carries the contact. Changes and deletions reach the whole
 * company: conversation headers and ticket lists show contacts' names.
 */
export function emitContactEvent(ctx: AppContext, companyId: number, event: ContactEvent): void {
  const room = event.action === "create" ? rooms.contactsPage(companyId) : rooms.company(companyId);
  ctx.realtime.emit(room, channel.contact(companyId), event);
}
