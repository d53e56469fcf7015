import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Box, Card, CardActionArea, CardContent, CircularProgress, Dialog, DialogContent, DialogTitle, IconButton, Paper, Typography } from "@mui/material";
import PlayCircleIcon from "@mui/icons-material/PlayCircleFilled";
import CloseIcon from "@mui/icons-material/Close";
import { useTranslation } from "react-i18next";
import type { Help } from "@atende/shared";
import { PageHeading } from "../../components/page-heading";
import { fetchHelps, helpKeys } from "./api/helps";
import { EmptyState } from "../../components/empty-state";

/**
 * Help videos. The provider's thumbnails are remote images, so each card shows a neutral placeholder
 * with a play icon; the modal embeds the video player and closes with Escape.
 */
export default function HelpsPage() {
  const { t } = useTranslation();
  const helps = useQuery({ queryKey: helpKeys.all, queryFn: fetchHelps });
  const [playing, setPlaying] = useState<Help | null>(null);

  return (
    <>
      <PageHeading title={t("helps.title")} count={helps.data?.length} />
      {helps.isLoading && (
        <Box sx={{ display: "grid", placeItems: "center", py: 6 }}>
          <CircularProgress />
        </Box>
      )}
      {helps.isSuccess && helps.data.length === 0 && (
        <Paper variant="outlined">
          <EmptyState>{t("helps.empty")}</EmptyState>
        </Paper>
      )}
      <Box sx={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(260px, 1fr))", gap: 2 }}>
        {(helps.data ?? []).map((h) => (
          <Card key={h.id} variant="outlined" data-testid="help-card">
            <CardActionArea onClick={() => h.video && setPlaying(h)} disabled={!h.video} aria-label={t("helps.watch", { title: h.title })} sx={{ height: "100%", display: "flex", flexDirection: "column", alignItems: "stretch" }}>
              <Box
                sx={{
                  aspectRatio: "16 / 9",
                  display: "grid",
                  placeItems: "center",
                  background: (theme) => `linear-gradient(135deg, ${theme.palette.primary.dark}, ${theme.palette.secondary.main})`,
                  color: "common.white",
                }}
              >
                {h.video ? <PlayCircleIcon sx={{ fontSize: 64, opacity: 0.9 }} /> : <Typography variant="caption">{t("helps.noVideo")}</Typography>}
              </Box>
              <CardContent sx={{ flexGrow: 1 }}>
                <Typography variant="subtitle1" fontWeight={600} gutterBottom>
                  {h.title}
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ display: "-webkit-box", WebkitLineClamp: 3, WebkitBoxOrient: "vertical", overflow: "hidden" }}>
                  {h.description}
                </Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Box>
      <Dialog open={playing !== null} onClose={() => setPlaying(null)} maxWidth="md" fullWidth aria-labelledby="help-video-title">
        <DialogTitle id="help-video-title" sx={{ display: "flex", alignItems: "center", pr: 1 }}>
          <Box sx={{ flexGrow: 1 }}>{playing?.title}</Box>
          <IconButton aria-label={t("common.close")} onClick={() => setPlaying(null)}>
            <CloseIcon />
          </IconButton>
        </DialogTitle>
        <DialogContent sx={{ p: 0 }}>
          {playing && (
            <Box
              component="iframe"
              title={playing.title}
              src={`https://www.youtube.com/embed/${encodeURIComponent(playing.video)}`}
              allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
              allowFullScreen
              sx={{ border: 0, width: "100%", aspectRatio: "16 / 9", display: "block", bgcolor: "common.black" }}
            />
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}
