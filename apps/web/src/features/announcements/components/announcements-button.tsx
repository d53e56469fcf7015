import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Badge, IconButton, List, ListItemButton, ListItemText, Tooltip } from "@mui/material";
import CampaignOutlined from "@mui/icons-material/CampaignOutlined";
import { useTranslation } from "react-i18next";
import { AppBarPopover } from "../../../components/app-bar-popover";
import { channel, type Announcement } from "@atende/shared";
import { logFailure } from "../../../lib/log-failure";
import { useSocketEvent } from "../../../lib/use-socket-event";
import { announcementKeys, fetchActiveAnnouncements, markAnnouncementsSeen } from "../api/announcements";
import { AnnouncementViewDialog } from "./announcement-view-dialog";
import { priorityPaletteColor } from "./priority";

/**
 * The app bar's announcements (1-core §2): the active ones, most urgent first with their priority's
 * colour; one opens in a dialog with title, image and text. The dot shows while one was created or
 * changed since the user last opened the list (kept on the server, so it holds on every device).
 */
export function AnnouncementsButton() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [viewing, setViewing] = useState<Announcement | null>(null);
  const list = useQuery({ queryKey: announcementKeys.bar, queryFn: ({ signal }) => fetchActiveAnnouncements(signal) });
  useSocketEvent(channel.announcement(), () => void queryClient.invalidateQueries({ queryKey: announcementKeys.all }));

  function open(target: HTMLElement) {
    setAnchor(target);
    if (!list.data?.unseen) return;
    queryClient.setQueryData(announcementKeys.bar, { ...list.data, unseen: 0 });
    markAnnouncementsSeen().catch((err: unknown) => logFailure("marking the announcements seen failed", err));
  }

  const records = list.data?.records ?? [];
  return (
    <>
      <Tooltip title={t("announcements.bar.title")}>
        <IconButton color="inherit" onClick={(e) => open(e.currentTarget)} aria-label={t("announcements.bar.open")} data-testid="announcements-button">
          <Badge variant="dot" color="error" invisible={!list.data?.unseen} data-testid="announcements-dot">
            <CampaignOutlined />
          </Badge>
        </IconButton>
      </Tooltip>
      <AppBarPopover anchor={anchor} onClose={() => setAnchor(null)} title={t("announcements.bar.title")} empty={records.length === 0 ? (list.isLoading ? t("announcements.bar.loading") : t("announcements.bar.empty")) : null}>
        <List dense disablePadding aria-label={t("announcements.bar.title")}>
          {records.map((r) => (
            <ListItemButton
              key={r.id}
              data-testid="announcement-item"
              data-priority={r.priority}
              onClick={() => {
                setAnchor(null);
                setViewing(r);
              }}
              sx={{ borderLeft: 4, borderColor: priorityPaletteColor(r.priority), alignItems: "flex-start" }}
            >
              <ListItemText
                primary={r.title}
                secondary={r.text}
                slotProps={{ primary: { noWrap: true, fontWeight: 600 }, secondary: { noWrap: true } }}
              />
            </ListItemButton>
          ))}
        </List>
      </AppBarPopover>
      <AnnouncementViewDialog record={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
