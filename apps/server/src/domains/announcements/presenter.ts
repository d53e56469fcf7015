import type { Announcement } from "@atende/shared";
import type { AnnouncementRow } from "./repository.js";

export const announcementMediaPath = (id: number) => `/announcements/${id}/media`;

export function presentAnnouncement(row: AnnouncementRow): Announcement {
  return {
    id: row.id,
    title: row.title,
    text: row.text,
    priority: row.priority,
    status: row.status,
    mediaPath: row.media_path ? announcementMediaPath(row.id) : null,
    mediaName: row.media_name,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
