import { useEffect, useState } from "react";
import { Box, Button, CircularProgress, Dialog, IconButton, Typography } from "@mui/material";
import BlockIcon from "@mui/icons-material/Block";
import BrokenImageIcon from "@mui/icons-material/BrokenImage";
import CloseIcon from "@mui/icons-material/Close";
import DescriptionIcon from "@mui/icons-material/Description";
import DownloadIcon from "@mui/icons-material/Download";
import LocationOnIcon from "@mui/icons-material/LocationOn";
import PersonIcon from "@mui/icons-material/Person";
import PhoneMissedIcon from "@mui/icons-material/PhoneMissed";
import { useTranslation } from "react-i18next";
import { fetchMediaBlob } from "../api/messages";
import { toastError } from "../../../lib/toast-error";
import type { Message } from "../types";
import { logFailure } from "../../../lib/log-failure";

/** An object URL of a message's private media, fetched with the bearer token. */
function useMediaUrl(messageId: number): { url: string | null; failed: boolean } {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const ctrl = new AbortController();
    let objectUrl: string | null = null;
    fetchMediaBlob(messageId, ctrl.signal)
      .then((blob) => {
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch((err: unknown) => {
        if (ctrl.signal.aborted) return;
        logFailure("loading a message's media failed", err, { messageId });
        setFailed(true);
      });
    return () => {
      ctrl.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [messageId]);
  return { url, failed };
}

function Loading({ h = 120 }: { h?: number }) {
  return (
    <Box sx={{ width: 240, height: h, display: "grid", placeItems: "center", bgcolor: "action.hover", borderRadius: 1 }}>
      <CircularProgress size={24} />
    </Box>
  );
}

/** The file could not be fetched here, or the provider never delivered it (`mediaUnavailable`). */
export function MediaUnavailable() {
  return <Failed />;
}

/** Text and media erased at the contact's request (LGPD): a placeholder; there is no file to ask for. */
export function MessageErased({ media }: { media: boolean }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1, color: "text.secondary", fontStyle: "italic", py: 0.5 }} data-testid="message-erased">
      <BlockIcon fontSize="small" />
      <Typography variant="body2">{t(media ? "tickets.messages.mediaErased" : "tickets.messages.erased")}</Typography>
    </Box>
  );
}

function Failed() {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1, color: "text.secondary", py: 1 }} data-testid="message-media-unavailable">
      <BrokenImageIcon fontSize="small" />
      <Typography variant="body2">{t("tickets.messages.mediaUnavailable")}</Typography>
    </Box>
  );
}

export function MessageImage({ message }: { message: Message }) {
  const { url, failed } = useMediaUrl(message.id);
  const [zoom, setZoom] = useState(false);
  const { t } = useTranslation();
  if (failed) return <Failed />;
  if (!url) return <Loading h={180} />;
  return (
    <>
      <Box
        component="img"
        src={url}
        alt={message.mediaName ?? t("tickets.messages.image")}
        onClick={() => setZoom(true)}
        sx={{ display: "block", maxWidth: 280, width: "100%", maxHeight: 320, objectFit: "cover", borderRadius: 1, cursor: "zoom-in" }}
        data-testid="message-image"
      />
      <Dialog open={zoom} onClose={() => setZoom(false)} maxWidth="lg">
        <IconButton onClick={() => setZoom(false)} sx={{ position: "absolute", right: 8, top: 8, bgcolor: "rgba(0,0,0,.4)", color: "#fff" }} aria-label={t("common.close")}>
          <CloseIcon />
        </IconButton>
        <Box component="img" src={url} alt="" sx={{ display: "block", maxWidth: "90vw", maxHeight: "90vh" }} />
      </Dialog>
    </>
  );
}

export function MessageAudio({ message }: { message: Message }) {
  const { url, failed } = useMediaUrl(message.id);
  if (failed) return <Failed />;
  if (!url) return <Loading h={54} />;
  return <Box component="audio" controls src={url} sx={{ width: 260, maxWidth: "100%", display: "block" }} data-testid="message-audio" />;
}

export function MessageVideo({ message }: { message: Message }) {
  const { url, failed } = useMediaUrl(message.id);
  if (failed) return <Failed />;
  if (!url) return <Loading h={180} />;
  return <Box component="video" controls src={url} sx={{ maxWidth: 300, width: "100%", borderRadius: 1, display: "block" }} />;
}

export function MessageDocument({ message }: { message: Message }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const name = message.mediaName || message.body || t("tickets.messages.document");
  async function download() {
    setBusy(true);
    try {
      const blob = await fetchMediaBlob(message.id);
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1, p: 1, bgcolor: "action.hover", borderRadius: 1, minWidth: 220 }}>
      <DescriptionIcon color="primary" />
      <Typography variant="body2" noWrap sx={{ flex: 1, minWidth: 0 }} title={name}>
        {name}
      </Typography>
      <Button size="small" startIcon={busy ? <CircularProgress size={14} /> : <DownloadIcon />} onClick={download} disabled={busy}>
        {t("tickets.messages.download")}
      </Button>
    </Box>
  );
}

/** Location body: image|link|description (spec 1-core §3). */
export function MessageLocation({ message }: { message: Message }) {
  const { t } = useTranslation();
  const [image = "", link = "", description = ""] = message.body.split("|");
  const safeImage = /^(data:image\/|https?:\/\/)/.test(image) ? image : "";
  const safeLink = /^https?:\/\//.test(link) ? link : "";
  return (
    <Box sx={{ width: 260, maxWidth: "100%" }} data-testid="message-location">
      {safeImage ? (
        <Box component="img" src={safeImage} alt="" sx={{ width: "100%", height: 140, objectFit: "cover", borderRadius: 1, display: "block" }} />
      ) : (
        <Box sx={{ height: 100, display: "grid", placeItems: "center", bgcolor: "action.hover", borderRadius: 1 }}>
          <LocationOnIcon color="error" sx={{ fontSize: 40 }} />
        </Box>
      )}
      {description && (
        <Typography variant="body2" sx={{ mt: 1, whiteSpace: "pre-wrap" }}>
          {description}
        </Typography>
      )}
      <Button fullWidth size="small" variant="outlined" sx={{ mt: 1 }} disabled={!safeLink} onClick={() => window.open(safeLink, "_blank", "noopener,noreferrer")}>
        {t("tickets.messages.view")}
      </Button>
    </Box>
  );
}

export function MessageCallLog({ message }: { message: Message }) {
  const { t } = useTranslation();
  const video = /video/i.test(message.body);
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1, color: "error.main" }} data-testid="message-call">
      <PhoneMissedIcon fontSize="small" />
      <Typography variant="body2">{t(video ? "tickets.messages.missedVideoCall" : "tickets.messages.missedCall")}</Typography>
    </Box>
  );
}

/** The vCards of a body (one message may share several contacts), each from BEGIN:VCARD. */
export function splitVCards(body: string): string[] {
  const cards = body.split(/(?=BEGIN:VCARD)/).filter((c) => c.trim());
  return cards.length ? cards : [body];
}

/** Shared contact cards: one card per vCard, each with its FN and TEL lines. */
export function MessageVCard({ message }: { message: Message }) {
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 0.5 }}>
      {splitVCards(message.body).map((card, i) => (
        <VCard key={i} card={card} />
      ))}
    </Box>
  );
}

function VCard({ card }: { card: string }) {
  const name = /FN:(.*)/.exec(card)?.[1]?.trim() ?? "";
  const phones = [...card.matchAll(/TEL[^:]*:(.*)/g)].map((m) => m[1]?.trim()).filter(Boolean);
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, p: 1, bgcolor: "action.hover", borderRadius: 1, minWidth: 200 }} data-testid="message-vcard">
      <PersonIcon color="primary" />
      <Box>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {name || "—"}
        </Typography>
        {phones.map((p) => (
          <Typography key={p} variant="caption" display="block" color="text.secondary">
            {p}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}
