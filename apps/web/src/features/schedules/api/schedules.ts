import type { Contact, ContactsPage, Schedule, ScheduleInput, SchedulesPage, ScheduleUpdateInput, Whatsapp } from "@atende/shared";
import { api } from "../../../lib/api";
import type { ListPage } from "../../../components/use-paged-list";

export const scheduleKeys = {
  all: ["schedules"] as const,
  /** Every cached search of the list (the prefix live events patch). */
  lists: ["schedules", "list"] as const,
  list: (search: string) => ["schedules", "list", search] as const,
  contactSearch: (search: string) => ["schedules", "contact-search", search] as const,
  contact: (id: number) => ["schedules", "contact", id] as const,
  connections: ["schedules", "connections"] as const,
};

export async function fetchSchedulesPage(search: string, pageNumber: number, signal?: AbortSignal): Promise<ListPage<Schedule>> {
  const res = await api<SchedulesPage>("/schedules", { query: { searchParam: search, pageNumber }, signal });
  return { items: res.schedules, hasMore: res.hasMore, count: res.count };
}

export function createSchedule(input: ScheduleInput): Promise<Schedule> {
  return api<Schedule>("/schedules", { method: "POST", body: input });
}

export function updateSchedule(id: number, input: ScheduleUpdateInput): Promise<Schedule> {
  return api<Schedule>(`/schedules/${id}`, { method: "PUT", body: input });
}

export function deleteSchedule(id: number): Promise<unknown> {
  return api(`/schedules/${id}`, { method: "DELETE" });
}

export function uploadScheduleMedia(id: number, file: File): Promise<Schedule> {
  const form = new FormData();
  form.append("file", file);
  return api<Schedule>(`/schedules/${id}/media-upload`, { method: "POST", body: form });
}

export function removeScheduleMedia(id: number): Promise<Schedule> {
  return api<Schedule>(`/schedules/${id}/media-upload`, { method: "DELETE" });
}

/** Contacts matching the typed text (the dialog searches from 3 characters). */
export async function searchContacts(search: string, signal?: AbortSignal): Promise<Contact[]> {
  const res = await api<ContactsPage>("/contacts", { query: { searchParam: search, pageNumber: 1 }, signal });
  return res.contacts;
}

export function fetchContact(id: number): Promise<Contact> {
  return api<Contact>(`/contacts/${id}`);
}

export function fetchConnections(): Promise<Whatsapp[]> {
  return api<Whatsapp[]>("/whatsapp", { query: { session: 0 } });
}
