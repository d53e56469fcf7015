import { useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { useQueryClient } from "@tanstack/react-query";
import { Badge, IconButton, List, ListItemButton, ListItemText, Tooltip } from "@mui/material";
import ForumOutlined from "@mui/icons-material/ForumOutlined";
import { useTranslation } from "react-i18next";
import { AppBarPopover } from "../../../components/app-bar-popover";
import { canVisit, channel, type ChatEvent } from "@atende/shared";
import { usePagedList } from "../../../components/use-paged-list";
import { useCurrentUser } from "../../../lib/session";
import { playNewMessageSound } from "../../../lib/sound";
import { useSocketEvent } from "../../../lib/use-socket-event";
import { chatKeys, fetchChatsPage } from "../api/chats";
import { applyChatEvent, unreadsFor } from "./chat-live";

/**
 * The app bar's internal chat (1-core §2): the unread total as a badge, the chats with unread counts in
 * a popover, a chime at the stored volume for another user's message outside the chat being read. It
 * also keeps every chat cache live, on every page.
 */
export function ChatsButton() {
  const me = useCurrentUser();
  return canVisit(me, me.company.plan, "/chats") ? <ChatsButtonInner /> : null;
}

function ChatsButtonInner() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const list = usePagedList({ queryKey: chatKeys.list(""), fetchPage: (page, signal) => fetchChatsPage("", page, signal) });

  useSocketEvent<ChatEvent>(channel.chat(me.companyId), (event) => {
    applyChatEvent(queryClient, event);
    if (event.action !== "new-message" || event.newMessage.senderId === me.id) return;
    const reading = pathname === `/chats/${event.record.uuid}` && document.visibilityState === "visible";
    if (!reading) playNewMessageSound();
  });

  const unread = list.items.reduce((sum, c) => sum + unreadsFor(c, me.id), 0);
  return (
    <>
      <Tooltip title={t("chats.bar.title")}>
        <IconButton color="inherit" onClick={(e) => setAnchor(e.currentTarget)} aria-label={t("chats.bar.open")} data-testid="chats-button">
          <Badge badgeContent={unread} color="error" max={99} data-testid="chats-unread">
            <ForumOutlined />
          </Badge>
        </IconButton>
      </Tooltip>
      <AppBarPopover anchor={anchor} onClose={() => setAnchor(null)} title={t("chats.bar.title")} empty={list.items.length === 0 ? (list.isLoading ? t("chats.bar.loading") : t("chats.empty")) : null} onScroll={list.onScroll}>
        <List dense disablePadding>
          {list.items.map((c) => (
            <ListItemButton
              key={c.id}
              data-testid="chat-bar-item"
              onClick={() => {
                setAnchor(null);
                navigate(`/chats/${c.uuid}`);
              }}
            >
              <ListItemText primary={c.title} secondary={c.lastMessage} slotProps={{ primary: { noWrap: true, fontWeight: unreadsFor(c, me.id) ? 700 : 500 }, secondary: { noWrap: true } }} />
              <Badge badgeContent={unreadsFor(c, me.id)} color="error" max={99} sx={{ mx: 1.5 }} />
            </ListItemButton>
          ))}
        </List>
      </AppBarPopover>
    </>
  );
}
