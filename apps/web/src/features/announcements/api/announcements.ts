import type { Announcement, AnnouncementInput, AnnouncementsPage } from "@atende/shared";
import { api, fetchBlob } from "../../../lib/api";
import type { ListPage } from "../../../components/use-paged-list";

export const announcementKeys = {
  all: ["announcements"] as const,
  /** Every cached search of the page's list (the prefix live events patch). */
  lists: ["announcements", "list"] as const,
  list: (search: string) => ["announcements", "list", search] as const,
  /** The app bar's list: the active ones and the unseen count. */
  bar: ["announcements", "bar"] as const,
  image: (id: number, updatedAt: string) => ["announcements", "image", id, updatedAt] as const,
};

export async function fetchAnnouncementsPage(search: string, pageNumber: number, signal?: AbortSignal): Promise<ListPage<Announcement>> {
  const res = await api<AnnouncementsPage>("/announcements", { query: { searchParam: search, pageNumber }, signal });
  return { items: res.records, hasMore: res.hasMore, count: res.count };
}

export function fetchActiveAnnouncements(signal?: AbortSignal): Promise<AnnouncementsPage> {
  return api<AnnouncementsPage>("/announcements", { query: { active: "true", pageNumber: 1 }, signal });
}

export function markAnnouncementsSeen(): Promise<unknown> {
  return api("/announcements/seen", { method: "POST" });
}

export function createAnnouncement(input: AnnouncementInput): Promise<Announcement> {
  return api<Announcement>("/announcements", { method: "POST", body: input });
}

export function updateAnnouncement(id: number, input: AnnouncementInput): Promise<Announcement> {
  return api<Announcement>(`/announcements/${id}`, { method: "PUT", body: input });
}

export function deleteAnnouncement(id: number): Promise<unknown> {
  return api(`/announcements/${id}`, { method: "DELETE" });
}

export function uploadAnnouncementImage(id: number, file: File): Promise<Announcement> {
  const form = new FormData();
  form.append("file", file);
  return api<Announcement>(`/announcements/${id}/media-upload`, { method: "POST", body: form });
}

export function removeAnnouncementImage(id: number): Promise<Announcement> {
  return api<Announcement>(`/announcements/${id}/media-upload`, { method: "DELETE" });
}

export function fetchAnnouncementImage(id: number, signal?: AbortSignal): Promise<Blob> {
  return fetchBlob(`/announcements/${id}/media`, signal);
}
