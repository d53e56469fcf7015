import { memo, type MouseEvent, type ReactNode } from "react";
import { Badge, Box, Chip, IconButton, ListItemButton, Tooltip, Typography } from "@mui/material";
import AndroidIcon from "@mui/icons-material/Android";
import CheckCircleOutlineIcon from "@mui/icons-material/CheckCircleOutline";
import PlayArrowIcon from "@mui/icons-material/PlayArrow";
import ReplayIcon from "@mui/icons-material/Replay";
import UndoIcon from "@mui/icons-material/Undo";
import DoneIcon from "@mui/icons-material/Done";
import { LIMITS, whatsAppPreview } from "@atende/shared";
import { useTranslation } from "react-i18next";
import { listTime, truncate } from "../lib/format";
import { canAccept, canFinish, canReopen, canResume, canReturn, connectionUsable, showsActions } from "../lib/rules";
import type { TicketAction } from "../hooks/use-ticket-actions";
import type { Ticket } from "../types";
import { AckIcon } from "./ack-icon";
import { ContactAvatar } from "./contact-avatar";
import { useWorkspace } from "./workspace-context";
import { colorChipSx } from "../../../lib/contrast";

interface Props {
  ticket: Ticket;
  selected: boolean;
  busy: boolean;
  onSelect(t: Ticket): void;
  onAction(action: TicketAction, t: Ticket): void;
}

const chipSx = { height: 18, fontSize: 10, fontWeight: 600, maxWidth: 150, "& .MuiChip-label": { px: 0.75 } } as const;

function TagChip({ label, color, testId, variant }: { label: string; color: string; testId?: string; variant?: "filled" | "outlined" }) {
  return (
    <Chip
      size="small"
      label={label}
      data-testid={testId}
      variant={variant ?? "filled"}
      sx={{ ...chipSx, ...(variant === "outlined" ? { borderColor: color, color } : colorChipSx(color)) }}
    />
  );
}

/** One ticket of the list (spec 1-core §2): name, time, ticks, tags, unread count and its actions. */
export const TicketListItem = memo(function TicketListItem({ ticket: t, selected, busy, onSelect, onAction }: Props) {
  const { t: tr } = useTranslation();
  const { me, narrow, statusOf } = useWorkspace();
  const name = t.contact?.name || t.contact?.number || "";
  const shownName = narrow ? truncate(name, LIMITS.contactNameNarrowChars) : name;
  const actions = showsActions(me, t);
  const connName = t.whatsapp?.name ?? "";
  const connected = connectionUsable(t, statusOf(t.whatsappId));
  const act = (a: TicketAction) => (e: MouseEvent) => {
    e.stopPropagation();
    onAction(a, t);
  };
  const button = (a: TicketAction, icon: ReactNode, color: "success" | "error" | "primary" | "warning" | "inherit") => (
    <Tooltip title={tr(`tickets.actions.${a}`)} key={a}>
      <span>
        <IconButton size="small" color={color} onClick={act(a)} disabled={busy} aria-label={tr(`tickets.actions.${a}`)} data-testid={`ticket-action-${a}`}>
          {icon}
        </IconButton>
      </span>
    </Tooltip>
  );
  return (
    <ListItemButton
      selected={selected}
      onClick={() => onSelect(t)}
      data-testid="ticket-item"
      data-ticket-id={t.id}
      data-status={t.status}
      sx={{
        alignItems: "flex-start",
        gap: 1.25,
        py: 1,
        pl: 1.5,
        pr: 1,
        borderBottom: 1,
        borderColor: "divider",
        borderLeft: 4,
        borderLeftColor: t.queue?.color ?? "grey.400",
      }}
    >
      <Badge
        overlap="circular"
        badgeContent={t.chatbot ? <AndroidIcon sx={{ fontSize: 14 }} titleAccess={tr("tickets.item.chatbot")} /> : null}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        sx={{ "& .MuiBadge-badge": { bgcolor: "background.paper", borderRadius: "50%", p: 0, minWidth: 18, height: 18, color: "secondary.main" } }}
      >
        <ContactAvatar name={name} src={t.contact?.profilePicUrl} />
      </Badge>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
          <Typography noWrap sx={{ fontWeight: 600, flex: 1, minWidth: 0 }} title={name} data-testid="ticket-contact-name">
            {shownName}
          </Typography>
          <Typography variant="caption" sx={{ color: t.unreadMessages > 0 ? "success.main" : "text.secondary", flexShrink: 0, fontWeight: t.unreadMessages > 0 ? 700 : 400 }}>
            {listTime(t.lastMessageAt ?? t.updatedAt)}
          </Typography>
        </Box>
        <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, minHeight: 22 }}>
          {t.lastMessageAck != null && <AckIcon ack={t.lastMessageAck} size={15} />}
          <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1, minWidth: 0 }}>
            {whatsAppPreview(t.lastMessage ?? "") || "\u00a0"}
          </Typography>
          {t.unreadMessages > 0 && (
            <Box
              data-testid="ticket-unread"
              sx={{ bgcolor: "success.main", color: "#fff", borderRadius: 10, minWidth: 20, height: 20, px: 0.75, fontSize: 11, fontWeight: 700, display: "grid", placeItems: "center", flexShrink: 0 }}
            >
              {t.unreadMessages}
            </Box>
          )}
        </Box>
        <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5, mt: 0.5 }}>
          {t.whatsapp &&
            (connected ? (
              <TagChip label={truncate(connName, LIMITS.connectionNameTagChars)} color="#475569" testId="tag-connection" />
            ) : (
              <TagChip label={tr("tickets.item.disconnected")} color="#dc2626" testId="tag-connection" />
            ))}
          {t.user && <TagChip label={t.user.name} color="#334155" testId="tag-user" />}
          {t.queue ? <TagChip label={t.queue.name} color={t.queue.color} testId="tag-queue" /> : <TagChip label={tr("tickets.item.noQueue")} color="#64748b" testId="tag-queue" />}
          <TagChip label={tr(t.originFromMe ? "tickets.item.proactive" : "tickets.item.reactive")} color={t.originFromMe ? "#7c3aed" : "#0891b2"} variant="outlined" testId="tag-origin" />
          {t.tags?.map((tag) => <TagChip key={tag.id} label={tag.name} color={tag.color} testId="tag-contact" />)}
        </Box>
      </Box>
      {actions && (
        <Box sx={{ display: "flex", flexDirection: "column", alignItems: "center", flexShrink: 0 }}>
          {canAccept(me, t) && button("accept", <DoneIcon fontSize="small" />, "success")}
          {canResume(me, t) && button("resume", <PlayArrowIcon fontSize="small" />, "success")}
          {canReturn(me, t) && button("return", <UndoIcon fontSize="small" />, "warning")}
          {canFinish(me, t) && button("finish", <CheckCircleOutlineIcon fontSize="small" />, "error")}
          {canReopen(me, t) && button("reopen", <ReplayIcon fontSize="small" />, "primary")}
        </Box>
      )}
    </ListItemButton>
  );
});
