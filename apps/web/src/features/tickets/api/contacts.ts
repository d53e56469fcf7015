import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import type { Contact } from "../types";

export const contactQuery = (id: number) =>
  queryOptions({ queryKey: ["contacts", "one", id] as const, queryFn: () => api<Contact>(`/contacts/${id}`) });

export interface ContactInput {
  name: string;
  number: string;
  email: string;
  extraInfo: { name: string; value: string }[];
}

export function updateContact(id: number, data: ContactInput): Promise<Contact> {
  return api<Contact>(`/contacts/${id}`, { method: "PUT", body: data });
}

/** Contacts whose name (or number) contains the text: the new-ticket dialog's name search (first page). */
export async function searchContacts(searchParam: string, signal?: AbortSignal): Promise<Contact[]> {
  const res = await api<{ contacts: Contact[] }>("/contacts", { query: { searchParam, pageNumber: 1 }, signal });
  return res.contacts;
}
