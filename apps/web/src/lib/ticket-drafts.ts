/** Unsent text per ticket, kept while the user moves between tickets and pages (until a reload). */
const drafts = new Map<number, string>();

export function readDraft(ticketId: number): string {
  return drafts.get(ticketId) ?? "";
}

export function saveDraft(ticketId: number, text: string): void {
  if (text) drafts.set(ticketId, text);
  else drafts.delete(ticketId);
}

/** Keeps a message typed for a ticket that could not be created: appended to the existing ticket's draft. */
export function keepTypedMessage(ticketId: number, text: string): void {
  const typed = text.trim();
  if (!typed) return;
  const current = readDraft(ticketId);
  saveDraft(ticketId, current && current !== typed ? `${current}\n${typed}` : typed);
}
