import type { Contact, ContactInput, ContactsPage } from "@atende/shared";
import { api } from "../../../lib/api";
import type { ListPage } from "../../../components/use-paged-list";

/** Query keys of the contacts list (every search shares the prefix, so live events patch them all). */
export const contactKeys = {
  all: ["contacts"] as const,
  /** Every cached search of the list (the prefix live events patch). */
  lists: ["contacts", "list"] as const,
  list: (search: string) => ["contacts", "list", search] as const,
};

export async function fetchContactsPage(search: string, pageNumber: number, signal?: AbortSignal): Promise<ListPage<Contact>> {
  const res = await api<ContactsPage>("/contacts", { query: { searchParam: search, pageNumber }, signal });
  return { items: res.contacts, hasMore: res.hasMore, count: res.count };
}

export function createContact(input: ContactInput): Promise<Contact> {
  return api<Contact>("/contacts", { method: "POST", body: input });
}

export function updateContact(id: number, input: Partial<ContactInput>): Promise<Contact> {
  return api<Contact>(`/contacts/${id}`, { method: "PUT", body: input });
}

export function deleteContact(id: number): Promise<unknown> {
  return api(`/contacts/${id}`, { method: "DELETE" });
}
