import { memo, useState } from "react";
import { Box, IconButton, Menu, MenuItem, Typography, useTheme } from "@mui/material";
import BlockIcon from "@mui/icons-material/Block";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import { useTranslation } from "react-i18next";
import { clock } from "../lib/format";
import { richText } from "../lib/rich-text";
import type { Message } from "../types";
import { AckIcon } from "./ack-icon";
import { MessageAudio, MessageCallLog, MessageDocument, MessageImage, MessageLocation, MessageVCard, MessageVideo } from "./message-media";

interface Props {
  message: Message;
  isGroup: boolean;
  contactName: string;
  canDelete: boolean;
  onReply(m: Message): void;
  onDelete(m: Message): void;
}

function Body({ message }: { message: Message }) {
  switch (message.mediaType) {
    case "image":
      return <MessageImage message={message} />;
    case "audio":
      return <MessageAudio message={message} />;
    case "video":
      return <MessageVideo message={message} />;
    case "application":
      return <MessageDocument message={message} />;
    case "locationMessage":
      return <MessageLocation message={message} />;
    case "vcard":
      return <MessageVCard message={message} />;
    case "call_log":
      return <MessageCallLog message={message} />;
    default:
      return null;
  }
}

const CAPTIONED = new Set(["image", "video"]);
const TEXT_TYPES = new Set<string>(["chat"]);

/** One message: side by sender, quote, media, edited/deleted markers, time and ticks, options menu. */
export const MessageBubble = memo(function MessageBubble({ message: m, isGroup, contactName, canDelete, onReply, onDelete }: Props) {
  const { t } = useTranslation();
  const theme = useTheme();
  const dark = theme.palette.mode === "dark";
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const isText = TEXT_TYPES.has(m.mediaType ?? "");
  const showCaption = CAPTIONED.has(m.mediaType) && m.body && m.body !== m.mediaName;
  const bg = m.fromMe ? (dark ? "#144d37" : "#d9fdd3") : dark ? "#1f2c3a" : "#ffffff";
  const quoted = m.quotedMsg;
  return (
    <Box sx={{ display: "flex", justifyContent: m.fromMe ? "flex-end" : "flex-start", px: { xs: 1, sm: 3 }, py: 0.25 }} data-testid="message" data-from-me={m.fromMe} data-message-id={m.id}>
      <Box
        sx={{
          position: "relative",
          maxWidth: { xs: "88%", md: "70%" },
          minWidth: 90,
          bgcolor: bg,
          color: "text.primary",
          borderRadius: 2,
          borderTopRightRadius: m.fromMe ? 2 : 8,
          borderTopLeftRadius: m.fromMe ? 8 : 2,
          px: 1.25,
          pt: 0.75,
          pb: 0.5,
          boxShadow: "0 1px 0.5px rgba(0,0,0,.13)",
          "&:hover .msg-options": { opacity: 1 },
        }}
      >
        <IconButton
          className="msg-options"
          size="small"
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-label={t("tickets.messages.options")}
          sx={{ position: "absolute", top: 0, right: 0, opacity: anchor ? 1 : 0, transition: "opacity .15s", bgcolor: bg, p: 0.25, "&:focus-visible": { opacity: 1 } }}
        >
          <ExpandMoreIcon fontSize="small" />
        </IconButton>
        <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
          <MenuItem
            onClick={() => {
              setAnchor(null);
              onReply(m);
            }}
          >
            {t("tickets.messages.reply")}
          </MenuItem>
          {canDelete && (
            <MenuItem
              onClick={() => {
                setAnchor(null);
                onDelete(m);
              }}
              sx={{ color: "error.main" }}
            >
              {t("common.delete")}
            </MenuItem>
          )}
        </Menu>
        {isGroup && !m.fromMe && (
          <Typography variant="caption" sx={{ fontWeight: 700, color: "secondary.main", display: "block" }}>
            {m.contact?.name ?? contactName}
          </Typography>
        )}
        {quoted && (
          <Box sx={{ borderLeft: 4, borderColor: quoted.fromMe ? "primary.main" : "secondary.main", bgcolor: "action.hover", borderRadius: 1, px: 1, py: 0.5, mb: 0.5, maxHeight: 80, overflow: "hidden" }} data-testid="quoted-message">
            <Typography variant="caption" sx={{ fontWeight: 700, color: quoted.fromMe ? "primary.main" : "secondary.main", display: "block" }}>
              {quoted.fromMe ? t("tickets.messages.you") : (quoted.contact?.name ?? contactName)}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
              {quoted.mediaType && !TEXT_TYPES.has(quoted.mediaType) && !quoted.body ? t(`tickets.media.${quoted.mediaType}`, { defaultValue: quoted.mediaType }) : quoted.body}
            </Typography>
          </Box>
        )}
        {m.isDeleted && (
          <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, color: "text.secondary", fontStyle: "italic", fontSize: 13 }} data-testid="message-deleted">
            <BlockIcon sx={{ fontSize: 16 }} />
            {t("tickets.messages.deleted")}
          </Box>
        )}
        <Box sx={{ opacity: m.isDeleted ? 0.55 : 1, textDecoration: m.isDeleted ? "line-through" : "none" }}>
          <Body message={m} />
          {(isText || showCaption) && m.body && (
            <Typography component="div" variant="body2" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word", pr: 1, mt: showCaption ? 0.5 : 0, fontSize: 14.2 }} data-testid="message-body">
              {richText(m.body)}
            </Typography>
          )}
        </Box>
        <Box sx={{ display: "flex", justifyContent: "flex-end", alignItems: "center", gap: 0.5, mt: 0.25 }}>
          {m.isEdited && (
            <Typography variant="caption" color="text.secondary" sx={{ fontStyle: "italic" }} data-testid="message-edited">
              {t("tickets.messages.edited")}
            </Typography>
          )}
          <Typography variant="caption" color="text.secondary" sx={{ fontSize: 11 }}>
            {clock(m.createdAt)}
          </Typography>
          {m.fromMe && <AckIcon ack={m.ack} size={15} error={m.sendError} />}
        </Box>
      </Box>
    </Box>
  );
});
