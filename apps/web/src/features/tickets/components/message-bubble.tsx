import { memo, useState } from "react";
import { Box, IconButton, Menu, MenuItem, Typography, useTheme } from "@mui/material";
import BlockIcon from "@mui/icons-material/Block";
import CampaignIcon from "@mui/icons-material/Campaign";
import HelpOutlineIcon from "@mui/icons-material/HelpOutline";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import { useTranslation } from "react-i18next";
import { clock } from "../lib/format";
import { WhatsAppText } from "../../../components/whatsapp-text";
import type { Message } from "../types";
import { AckIcon } from "./ack-icon";
import { MediaUnavailable, MessageAudio, MessageErased, MessageCallLog, MessageDocument, MessageImage, MessageLocation, MessageVCard, MessageVideo } from "./message-media";

interface Props {
  message: Message;
  isGroup: boolean;
  contactName: string;
  canDelete: boolean;
  onReply(m: Message): void;
  onDelete(m: Message): void;
}

const FILE_TYPES = new Set<string>(["image", "audio", "video", "application"]);

function Body({ message }: { message: Message }) {
  // erased at the contact's request (LGPD): the file is gone, never ask for it
  if (message.erased) return <MessageErased media={FILE_TYPES.has(message.mediaType)} />;
  // the provider never delivered the file: no download to try, the caption still shows below
  if (message.mediaUnavailable && FILE_TYPES.has(message.mediaType)) return <MediaUnavailable />;
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

const CAPTIONED = new Set(["image", "video", "application"]);
const TEXT_TYPES = new Set<string>(["chat"]);

/** One message: side by sender, quote, media, edited/deleted markers, time and ticks, options menu. */
export const MessageBubble = memo(function MessageBubble({ message: m, isGroup, contactName, canDelete, onReply, onDelete }: Props) {
  const { t } = useTranslation();
  const theme = useTheme();
  const dark = theme.palette.mode === "dark";
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const isText = TEXT_TYPES.has(m.mediaType ?? "");
  // a document's body is its file name when it has no caption
  const showCaption = CAPTIONED.has(m.mediaType) && m.body && m.body !== m.mediaName && !(m.mediaType === "application" && !m.mediaName && !m.mediaUnavailable);
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
              {quoted.mediaType && !TEXT_TYPES.has(quoted.mediaType) && !quoted.body ? t(`tickets.media.${quoted.mediaType}`, { defaultValue: quoted.mediaType }) : <WhatsAppText text={quoted.body} />}
            </Typography>
          </Box>
        )}
        {m.isDeleted && (
          <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, color: "text.secondary", fontStyle: "italic", fontSize: 13 }} data-testid="message-deleted">
            <BlockIcon sx={{ fontSize: 16 }} />
            {t("tickets.messages.deleted")}
          </Box>
        )}
        {m.referral && <AdReferral referral={m.referral} />}
        <Box sx={{ opacity: m.isDeleted ? 0.55 : 1, textDecoration: m.isDeleted ? "line-through" : "none" }}>
          {m.unsupported && (
            <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, color: "text.secondary", fontStyle: "italic", fontSize: 13 }} data-testid="message-unsupported">
              <HelpOutlineIcon sx={{ fontSize: 16 }} />
              {t("tickets.messages.unsupported")}
            </Box>
          )}
          <Body message={m} />
          {(isText || showCaption) && m.body && (
            <Typography component="div" variant="body2" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word", pr: 1, mt: showCaption ? 0.5 : 0, fontSize: 14.2 }} data-testid="message-body">
              <WhatsAppText text={m.body} />
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
          {m.fromMe && <AckIcon ack={m.ack} size={15} error={m.sendError} retrying={Boolean(m.retry)} />}
        </Box>
        {m.reactions && m.reactions.length > 0 && <Reactions reactions={m.reactions} />}
      </Box>
    </Box>
  );
});

/** The contact's reactions, under the bubble as WhatsApp shows them (each emoji once, with its count). */
function Reactions({ reactions }: { reactions: NonNullable<Message["reactions"]> }) {
  const { t } = useTranslation();
  const counts = new Map<string, number>();
  for (const r of reactions) counts.set(r.emoji, (counts.get(r.emoji) ?? 0) + 1);
  return (
    <Box
      role="group"
      aria-label={t("tickets.messages.reactions")}
      sx={{ display: "inline-flex", gap: 0.25, mt: 0.25, px: 0.75, py: 0.125, bgcolor: "background.paper", borderRadius: 3, boxShadow: "0 1px 2px rgba(0,0,0,.2)", fontSize: 14 }}
      data-testid="message-reactions"
    >
      {[...counts].map(([emoji, n]) => (
        <span key={emoji}>{n > 1 ? `${emoji} ${n}` : emoji}</span>
      ))}
    </Box>
  );
}

/** The click-to-WhatsApp ad the conversation came from: its headline, linking to the ad when Meta gave a web address. */
function AdReferral({ referral }: { referral: NonNullable<Message["referral"]> }) {
  const { t } = useTranslation();
  const link = referral.sourceUrl && /^https?:\/\//.test(referral.sourceUrl) ? referral.sourceUrl : null;
  const title = referral.headline || referral.body || "";
  return (
    <Box sx={{ display: "flex", alignItems: "flex-start", gap: 0.75, bgcolor: "action.hover", borderRadius: 1, px: 1, py: 0.5, mb: 0.5 }} data-testid="message-referral">
      <CampaignIcon sx={{ fontSize: 18, color: "text.secondary", mt: 0.25 }} />
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="caption" color="text.secondary" display="block">
          {t("tickets.messages.fromAd")}
        </Typography>
        {title &&
          (link ? (
            <Typography component="a" variant="body2" href={link} target="_blank" rel="noopener noreferrer" sx={{ wordBreak: "break-word" }}>
              {title}
            </Typography>
          ) : (
            <Typography variant="body2" sx={{ wordBreak: "break-word" }}>
              {title}
            </Typography>
          ))}
      </Box>
    </Box>
  );
}
