import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { Announcement } from "@atende/shared";
import { AnnouncementImage } from "./announcement-image";
import { priorityPaletteColor } from "./priority";

/** What everyone sees when opening an announcement from the app bar: title, image and text. */
export function AnnouncementViewDialog({ record, onClose }: { record: Announcement | null; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={record !== null} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="announcement-view-title">
      {record && (
        <>
          <DialogTitle id="announcement-view-title" sx={{ borderLeft: 6, borderColor: priorityPaletteColor(record.priority) }}>
            {record.title}
          </DialogTitle>
          <DialogContent dividers sx={{ display: "grid", gap: 2 }}>
            <AnnouncementImage record={record} />
            <Box>
              <Typography variant="body1" sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                {record.text}
              </Typography>
            </Box>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t("announcements.close")}</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
