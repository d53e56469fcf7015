import { Fragment, useLayoutEffect, useRef } from "react";
import { Box, Chip, CircularProgress, Typography, useTheme } from "@mui/material";
import WavingHandIcon from "@mui/icons-material/WavingHand";
import { LIMITS } from "@atende/shared";
import { useTranslation } from "react-i18next";
import { dayLabel, sameDay } from "../lib/format";
import type { Message, Ticket } from "../types";
import { MessageBubble } from "./message-bubble";

interface Props {
  ticket: Ticket;
  messages: Message[];
  hasMore: boolean;
  loading: boolean;
  tailVersion: number;
  meId: number;
  onLoadOlder(): void;
  onReply(m: Message): void;
  onDelete(m: Message): void;
}

function DaySeparator({ date }: { date: string }) {
  const { t } = useTranslation();
  const label = dayLabel(date);
  const text = label.kind === "today" ? t("tickets.messages.today") : label.kind === "yesterday" ? t("tickets.messages.yesterday") : label.text;
  return (
    <Box sx={{ display: "flex", justifyContent: "center", my: 1.5 }} data-testid="day-separator">
      <Chip size="small" label={text} sx={{ bgcolor: "background.paper", boxShadow: "0 1px 0.5px rgba(0,0,0,.13)", fontSize: 12 }} />
    </Box>
  );
}

/** The conversation: day separators, older pages when scrolled within 50 px of the top. */
export function MessagesList({ ticket, messages, hasMore, loading, tailVersion, meId, onLoadOlder, onReply, onDelete }: Props) {
  const { t } = useTranslation();
  const theme = useTheme();
  const ref = useRef<HTMLDivElement>(null);
  const nearBottom = useRef(true);
  const prevHeight = useRef<{ height: number; top: number; firstId?: number } | null>(null);
  const lastTail = useRef(-1);

  // Keep the reading position when older messages are prepended; follow new ones at the bottom.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const first = messages[0]?.id;
    const prev = prevHeight.current;
    if (prev && prev.firstId !== first && lastTail.current === tailVersion) {
      el.scrollTop = el.scrollHeight - prev.height + prev.top;
    } else if (lastTail.current !== tailVersion) {
      const last = messages[messages.length - 1];
      if (nearBottom.current || lastTail.current === -1 || last?.fromMe) el.scrollTop = el.scrollHeight;
      lastTail.current = tailVersion;
    }
    prevHeight.current = { height: el.scrollHeight, top: el.scrollTop, firstId: first };
  }, [messages, tailVersion]);

  function onScroll() {
    const el = ref.current;
    if (!el) return;
    nearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 120;
    prevHeight.current = { height: el.scrollHeight, top: el.scrollTop, firstId: messages[0]?.id };
    if (el.scrollTop < LIMITS.olderMessagesScrollPx && hasMore && !loading) onLoadOlder();
  }

  const dark = theme.palette.mode === "dark";
  return (
    <Box
      ref={ref}
      onScroll={onScroll}
      data-testid="messages-list"
      sx={{
        flex: 1,
        minHeight: 0,
        overflowY: "auto",
        overflowAnchor: "none",
        py: 1,
        bgcolor: dark ? "#0b141a" : "#efeae2",
        backgroundImage: dark
          ? "radial-gradient(rgba(255,255,255,0.035) 1px, transparent 1px)"
          : "radial-gradient(rgba(0,0,0,0.045) 1px, transparent 1px)",
        backgroundSize: "18px 18px",
      }}
    >
      {loading && messages.length > 0 && (
        <Box sx={{ display: "flex", justifyContent: "center", py: 1 }}>
          <CircularProgress size={20} />
        </Box>
      )}
      {messages.length === 0 && loading && (
        <Box sx={{ height: "100%", display: "grid", placeItems: "center" }}>
          <CircularProgress size={28} />
        </Box>
      )}
      {messages.length === 0 && !loading && (
        <Box sx={{ height: "100%", display: "grid", placeItems: "center", textAlign: "center", px: 3 }} data-testid="messages-empty">
          <Box sx={{ bgcolor: "background.paper", borderRadius: 3, px: 4, py: 3, boxShadow: 1, maxWidth: 360 }}>
            <WavingHandIcon sx={{ fontSize: 44, color: "#f59e0b" }} />
            <Typography variant="subtitle1" sx={{ fontWeight: 600, mt: 1 }}>
              {t("tickets.messages.emptyTitle")}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t("tickets.messages.emptyText", { name: ticket.contact?.name ?? "" })}
            </Typography>
          </Box>
        </Box>
      )}
      {messages.map((m, i) => {
        const prev = messages[i - 1];
        const newDay = !prev || !sameDay(prev.createdAt, m.createdAt);
        const otherTicket = prev && prev.ticketId !== m.ticketId;
        return (
          <Fragment key={m.id}>
            {otherTicket && (
              <Box sx={{ display: "flex", alignItems: "center", gap: 1, px: 3, my: 1, color: "text.secondary" }}>
                <Box sx={{ flex: 1, borderTop: 1, borderColor: "divider" }} />
                <Typography variant="caption">{t("tickets.messages.ticketBoundary", { id: m.ticketId })}</Typography>
                <Box sx={{ flex: 1, borderTop: 1, borderColor: "divider" }} />
              </Box>
            )}
            {newDay && <DaySeparator date={m.createdAt} />}
            <MessageBubble
              message={m}
              isGroup={ticket.isGroup}
              contactName={ticket.contact?.name ?? ""}
              canDelete={m.fromMe && !m.isDeleted && (m.userId == null || m.userId === meId)}
              onReply={onReply}
              onDelete={onDelete}
            />
          </Fragment>
        );
      })}
    </Box>
  );
}
