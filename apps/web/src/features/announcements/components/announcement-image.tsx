import { useEffect, useState } from "react";
import { Box, Skeleton } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import type { Announcement } from "@atende/shared";
import { announcementKeys, fetchAnnouncementImage } from "../api/announcements";

/** An announcement's image: private, so fetched with the token and shown through an object URL. */
export function AnnouncementImage({ record, maxHeight = 320 }: { record: Announcement; maxHeight?: number }) {
  const image = useQuery({
    queryKey: announcementKeys.image(record.id, record.updatedAt),
    queryFn: ({ signal }) => fetchAnnouncementImage(record.id, signal),
    enabled: record.mediaPath !== null,
    staleTime: Infinity,
  });
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!image.data) return;
    const u = URL.createObjectURL(image.data);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [image.data]);
  if (!record.mediaPath) return null;
  if (!url) return <Skeleton variant="rounded" height={160} />;
  return <Box component="img" src={url} alt={record.mediaName ?? record.title} sx={{ display: "block", maxWidth: "100%", maxHeight, mx: "auto", borderRadius: 1 }} />;
}
