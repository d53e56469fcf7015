import { Fragment, useCallback } from "react";
import { Badge, Box, Chip, CircularProgress, Fab, Typography, useTheme } from "@mui/material";
import KeyboardArrowDownIcon from "@mui/icons-material/KeyboardArrowDown";
import VisibilityOffOutlinedIcon from "@mui/icons-material/VisibilityOffOutlined";
import WavingHandIcon from "@mui/icons-material/WavingHand";
import { LIMITS } from "@atende/shared";
import { useTranslation } from "react-i18next";
import { useConversationScroll } from "../hooks/use-conversation-scroll";
import { dayLabel, sameDay } from "../lib/format";
import type { HiddenMessagesRun, Message, Ticket } from "../types";
import { MessageBubble } from "./message-bubble";

interface Props {
  ticket: Ticket;
  messages: Message[];
  /** Where the history leaves out messages of tickets the user may not open. */
  hidden: HiddenMessagesRun[];
  hasMore: boolean;
  loading: boolean;
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

/** One line in place of a run of messages the user may not see: how many, and from which queue. */
function HiddenRunLine({ run }: { run: HiddenMessagesRun }) {
  const { t } = useTranslation();
  const text = run.queue
    ? t("tickets.messages.hiddenRun", { count: run.count, queue: run.queue.name })
    : t("tickets.messages.hiddenRunNoQueue", { count: run.count });
  return (
    <Box sx={{ display: "flex", justifyContent: "center", px: 2, my: 1 }} data-testid="hidden-messages">
      <Box
        sx={{
          display: "flex",
          alignItems: "center",
          gap: 1,
          maxWidth: "100%",
          px: 1.5,
          py: 0.5,
          borderRadius: 2,
          bgcolor: "background.paper",
          color: "text.secondary",
          boxShadow: "0 1px 0.5px rgba(0,0,0,.13)",
          borderLeft: 3,
          borderLeftColor: run.queue?.color || "divider",
        }}
      >
        <VisibilityOffOutlinedIcon sx={{ fontSize: 16, flexShrink: 0 }} />
        <Typography variant="caption" sx={{ fontStyle: "italic", overflowWrap: "anywhere" }}>
          {text}
        </Typography>
      </Box>
    </Box>
  );
}

/** The runs by the visible message they come before (null: after the newest one). */
function runsByAnchor(hidden: HiddenMessagesRun[]): Map<number | null, HiddenMessagesRun[]> {
  const map = new Map<number | null, HiddenMessagesRun[]>();
  for (const run of hidden) map.set(run.beforeMessageId, [...(map.get(run.beforeMessageId) ?? []), run]);
  return map;
}

const messageId = (m: Message) => m.id;
const sentByAgent = (m: Message) => m.fromMe;

/**
 * The conversation: day separators, older pages when scrolled within 50 px of the top, opening at the
 * latest message (see useConversationScroll) with a "jump to latest" button once scrolled up.
 */
export function MessagesList({ ticket, messages, hidden, hasMore, loading, meId, onLoadOlder, onReply, onDelete }: Props) {
  const { t } = useTranslation();
  const theme = useTheme();
  const onNearTop = useCallback(() => {
    if (hasMore && !loading) onLoadOlder();
  }, [hasMore, loading, onLoadOlder]);
  const scroll = useConversationScroll({
    conversationKey: ticket.id,
    items: messages,
    idOf: messageId,
    isOwn: sentByAgent,
    onNearTop,
    nearTopPx: LIMITS.olderMessagesScrollPx,
  });

  const runs = runsByAnchor(hidden);
  const empty = messages.length === 0 && hidden.length === 0;
  const dark = theme.palette.mode === "dark";
  return (
    <Box sx={{ flex: 1, minHeight: 0, position: "relative", display: "flex", flexDirection: "column" }}>
      <Box
        ref={scroll.viewport}
        onScroll={scroll.onScroll}
        data-testid="messages-list"
        sx={{
          flex: 1,
          minHeight: 0,
          overflowY: "auto",
          overflowAnchor: "none",
          bgcolor: dark ? "#0b141a" : "#efeae2",
          backgroundImage: dark
            ? "radial-gradient(rgba(255,255,255,0.035) 1px, transparent 1px)"
            : "radial-gradient(rgba(0,0,0,0.045) 1px, transparent 1px)",
          backgroundSize: "18px 18px",
        }}
      >
        <Box ref={scroll.content} sx={{ minHeight: "100%", boxSizing: "border-box", py: 1, display: "flex", flexDirection: "column" }}>
          {loading && messages.length > 0 && (
            // older messages loading: floats over the top without taking room, so nothing moves under the reader
            <Box sx={{ position: "sticky", top: 0, height: 0, overflow: "visible", display: "flex", justifyContent: "center", zIndex: 1 }} data-testid="older-loading">
              <CircularProgress size={20} sx={{ mt: 1 }} />
            </Box>
          )}
          {messages.length === 0 && loading && (
            <Box sx={{ flex: 1, display: "grid", placeItems: "center" }}>
              <CircularProgress size={28} />
            </Box>
          )}
          {empty && !loading && (
            <Box sx={{ flex: 1, display: "grid", placeItems: "center", textAlign: "center", px: 3 }} data-testid="messages-empty">
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
                {runs.get(m.id)?.map((run, j) => <HiddenRunLine key={`h${j}`} run={run} />)}
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
          {runs.get(null)?.map((run, j) => <HiddenRunLine key={`h-last${j}`} run={run} />)}
        </Box>
      </Box>
      {scroll.showJump && (
        <Fab
          size="small"
          onClick={scroll.jumpToLatest}
          aria-label={t("tickets.messages.jumpToLatest", { count: scroll.unseen })}
          data-testid="jump-to-latest"
          sx={{ position: "absolute", right: 16, bottom: 16, bgcolor: "background.paper", color: "text.secondary", "&:hover": { bgcolor: "background.paper" } }}
        >
          <Badge badgeContent={scroll.unseen} color="success" max={99} slotProps={{ badge: { "data-testid": "jump-count" } as object }}>
            <KeyboardArrowDownIcon />
          </Badge>
        </Fab>
      )}
    </Box>
  );
}
