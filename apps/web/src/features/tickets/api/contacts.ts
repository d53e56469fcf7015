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
