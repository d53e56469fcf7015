import { useEffect, useMemo, useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { Badge, Box, IconButton, List, ListItemAvatar, ListItemButton, ListItemText, Tooltip, Typography } from "@mui/material";
import NotificationsNoneIcon from "@mui/icons-material/NotificationsNone";
import { channel, CLIENT_EVENTS, whatsAppPreview, type AppMessageEvent, type TicketEvent } from "@atende/shared";
import { useTranslation } from "react-i18next";
import { AppBarPopover } from "../../../components/app-bar-popover";
import { useCurrentUser } from "../../../lib/session";
import { getSocket } from "../../../lib/socket";
import { fetchTickets } from "../api/tickets";
import { useChannel, useSocketReconnect } from "../hooks/use-realtime";
import { listTime } from "../lib/format";
import { visibleTo } from "../lib/rules";
import { playNewMessageSound } from "../../../lib/sound";
import type { Ticket } from "../types";
import { ContactAvatar } from "./contact-avatar";
import { logFailure } from "../../../lib/log-failure";

/**
 * The app bar's notifications (spec 1-core §2, §6): tickets with unread messages, plus pending tickets
 * when the user's allTicket is enable; a chime at the stored volume for each new customer message.
 */
export function TicketNotificationsButton() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [unread, setUnread] = useState<Ticket[]>([]);
  const [pending, setPending] = useState<Ticket[]>([]);
  const withPending = me.allTicket === "enable";

  const load = useMemo(
    () => async () => {
      try {
        const [u, p] = await Promise.all([
          fetchTickets({ withUnreadMessages: true, showAll: true }),
          withPending ? fetchTickets({ status: "pending", showAll: true }) : Promise.resolve({ tickets: [] as Ticket[] }),
        ]);
        setUnread(u.tickets.filter((x) => x.unreadMessages > 0));
        setPending(p.tickets);
      } catch (err) {
        // the next live event or reconnect fills it
        logFailure("loading the notifications failed", err);
      }
    },
    [withPending],
  );

  useEffect(() => {
    void load();
    getSocket().emit(CLIENT_EVENTS.joinNotification);
  }, [load]);
  useSocketReconnect(() => void load());

  useChannel<AppMessageEvent<Ticket>>(channel.appMessage(me.companyId), (d) => {
    if (d.action !== "create" || d.message.fromMe || !d.ticket) return;
    const tk = d.ticket;
    const viewing = pathname === `/tickets/${tk.uuid}` && document.visibilityState === "visible";
    if (!viewing) setUnread((l) => [tk, ...l.filter((x) => x.id !== tk.id)]);
    // a new customer's ticket arrives with its first message
    if (withPending && tk.status === "pending" && visibleTo(me, tk, true)) setPending((l) => [tk, ...l.filter((x) => x.id !== tk.id)]);
    playNewMessageSound();
  });
  useChannel<TicketEvent>(channel.ticket(me.companyId), (d) => {
    if (d.action === "updateUnread" || d.action === "delete") {
      setUnread((l) => l.filter((x) => x.id !== d.ticketId));
      if (d.action === "delete") setPending((l) => l.filter((x) => x.id !== d.ticketId));
      return;
    }
    const tk = d.ticket;
    // an update also reaches those who saw the ticket before a move: it leaves their notifications
    const visible = visibleTo(me, tk, true);
    setUnread((l) => (visible && tk.unreadMessages > 0 ? l.map((x) => (x.id === tk.id ? tk : x)) : l.filter((x) => x.id !== tk.id)));
    if (withPending) {
      setPending((l) => (visible && tk.status === "pending" ? [tk, ...l.filter((x) => x.id !== tk.id)] : l.filter((x) => x.id !== tk.id)));
    }
  });

  const items = useMemo(() => {
    const seen = new Set<number>();
    const out: { ticket: Ticket; kind: "unread" | "pending" }[] = [];
    const add = (ticket: Ticket, kind: "unread" | "pending") => {
      if (seen.has(ticket.id)) return;
      seen.add(ticket.id);
      out.push({ ticket, kind });
    };
    unread.forEach((tk) => add(tk, "unread"));
    pending.forEach((tk) => add(tk, "pending"));
    return out;
  }, [unread, pending]);

  return (
    <>
      <Tooltip title={t("tickets.notifications.title")}>
        <IconButton color="inherit" onClick={(e) => setAnchor(e.currentTarget)} aria-label={t("tickets.notifications.open")} data-testid="notifications-button">
          <Badge badgeContent={items.length} color="error" max={99}>
            <NotificationsNoneIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <AppBarPopover anchor={anchor} onClose={() => setAnchor(null)} title={t("tickets.notifications.title")} empty={items.length === 0 ? t("tickets.notifications.empty") : null}>
        <List dense disablePadding>
          {items.map(({ ticket: tk, kind }) => (
            <ListItemButton
              key={tk.id}
              onClick={() => {
                setAnchor(null);
                navigate(`/tickets/${tk.uuid}`);
              }}
              sx={{ borderBottom: 1, borderColor: "divider" }}
            >
              <ListItemAvatar>
                <ContactAvatar name={tk.contact.name} src={tk.contact.profilePicUrl} size={38} />
              </ListItemAvatar>
              <ListItemText
                primary={
                  <Box sx={{ display: "flex", gap: 1 }}>
                    <Typography noWrap sx={{ flex: 1, fontWeight: 600, fontSize: 14 }}>
                      {tk.contact.name}
                    </Typography>
                    <Typography variant="caption" color="text.secondary">
                      {listTime(tk.lastMessageAt ?? tk.updatedAt)}
                    </Typography>
                  </Box>
                }
                secondary={
                  <>
                    <Typography component="span" variant="body2" noWrap display="block" color="text.secondary">
                      {whatsAppPreview(tk.lastMessage ?? "")}
                    </Typography>
                    <Typography component="span" variant="caption" color={kind === "unread" ? "success.main" : "warning.main"}>
                      {kind === "unread" ? t("tickets.notifications.unread", { count: tk.unreadMessages }) : t("tickets.notifications.pending")}
                    </Typography>
                  </>
                }
              />
            </ListItemButton>
          ))}
        </List>
      </AppBarPopover>
    </>
  );
}
