import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { Box, CircularProgress, IconButton, Paper, TextField, Tooltip, Typography } from "@mui/material";
import SendIcon from "@mui/icons-material/Send";
import { useTranslation } from "react-i18next";
import type { Chat, ChatMessage } from "@atende/shared";
import { logFailure } from "../../../lib/log-failure";
import { useCurrentUser } from "../../../lib/session";
import { formatInZone, useCompanyTimeZone } from "../../../lib/time-zone";
import { toastError } from "../../../lib/toast-error";
import { chatKeys, fetchChatMessages, markChatRead, sendChatMessage } from "../api/chats";
import { applyChatEvent, unreadsFor } from "./chat-live";

/** Older messages load when the pane is scrolled within this distance of its top (spec 3 §9). */
const OLDER_WITHIN_PX = 600;

/**
 * A chat's messages, oldest at the top: opens at the latest, keeps the message being read in place when
 * older pages arrive, follows new ones while the reader is at the bottom; the chat is marked read while
 * it is open and the tab is visible.
 */
export function ChatMessages({ chat }: { chat: Chat }) {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const timeZone = useCompanyTimeZone();
  const queryClient = useQueryClient();
  const query = useInfiniteQuery({
    queryKey: chatKeys.messages(chat.id),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => fetchChatMessages(chat.id, pageParam, signal),
    getNextPageParam: (last, all) => (last.hasMore ? all.length + 1 : undefined),
  });
  const messages = useMemo(() => {
    const seen = new Set<number>();
    const list: ChatMessage[] = [];
    for (const m of query.data?.pages.flatMap((p) => p.records) ?? []) if (!seen.has(m.id) && seen.add(m.id)) list.push(m);
    return list.reverse();
  }, [query.data]);

  const box = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const beforeOlder = useRef<{ height: number; top: number } | null>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    if (beforeOlder.current) {
      el.scrollTop = el.scrollHeight - beforeOlder.current.height + beforeOlder.current.top;
      beforeOlder.current = null;
    } else if (atBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [messages]);
  useEffect(() => {
    atBottom.current = true;
  }, [chat.id]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  function onScroll() {
    const el = box.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    if (el.scrollTop < OLDER_WITHIN_PX && hasNextPage && !isFetchingNextPage) {
      beforeOlder.current = { height: el.scrollHeight, top: el.scrollTop };
      void fetchNextPage();
    }
  }
  // a short first page leaves nothing to scroll: the older pages load until the pane can scroll
  useEffect(() => {
    const el = box.current;
    if (el && el.scrollHeight <= el.clientHeight + OLDER_WITHIN_PX && hasNextPage && !isFetchingNextPage && !query.isLoading) void fetchNextPage();
  }, [messages, hasNextPage, isFetchingNextPage, fetchNextPage, query.isLoading]);

  const unread = unreadsFor(chat, me.id);
  const reading = useRef(false);
  useEffect(() => {
    const read = () => {
      if (!unread || reading.current || document.visibilityState !== "visible") return;
      reading.current = true;
      markChatRead(chat.id, me.id)
        .then((record) => applyChatEvent(queryClient, { action: "update", record }))
        .catch((err: unknown) => logFailure("marking the chat read failed", err))
        .finally(() => (reading.current = false));
    };
    read();
    document.addEventListener("visibilitychange", read);
    return () => document.removeEventListener("visibilitychange", read);
  }, [chat.id, unread, me.id, queryClient]);

  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  async function send() {
    const message = text.trim();
    if (!message || sending) return;
    setSending(true);
    try {
      const newMessage = await sendChatMessage(chat.id, message);
      setText("");
      atBottom.current = true;
      applyChatEvent(queryClient, { action: "new-message", record: { ...chat, lastMessage: message, updatedAt: newMessage.createdAt }, newMessage });
    } catch (err) {
      toastError(err);
    } finally {
      setSending(false);
    }
  }

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%", minHeight: 0 }}>
      <Box ref={box} onScroll={onScroll} data-testid="chat-messages" sx={{ flex: 1, overflowY: "auto", p: 2, display: "flex", flexDirection: "column", gap: 1 }}>
        {isFetchingNextPage && <CircularProgress size={20} sx={{ alignSelf: "center" }} />}
        {query.isLoading && <CircularProgress size={24} sx={{ alignSelf: "center", mt: 4 }} />}
        {query.isSuccess && messages.length === 0 && (
          <Typography color="text.secondary" sx={{ textAlign: "center", mt: 4 }}>
            {t("chats.noMessages")}
          </Typography>
        )}
        {messages.map((m) => {
          const mine = m.senderId === me.id;
          return (
            <Paper
              key={m.id}
              data-testid="chat-message"
              data-mine={mine}
              elevation={0}
              sx={{
                alignSelf: mine ? "flex-end" : "flex-start",
                maxWidth: "80%",
                px: 1.5,
                py: 1,
                bgcolor: mine ? "primary.main" : "action.hover",
                color: mine ? "primary.contrastText" : "text.primary",
                borderRadius: 2,
              }}
            >
              {!mine && (
                <Typography variant="caption" sx={{ fontWeight: 700, display: "block" }}>
                  {m.sender?.name ?? t("chats.formerUser")}
                </Typography>
              )}
              <Typography variant="body2" sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                {m.message}
              </Typography>
              <Typography variant="caption" sx={{ display: "block", textAlign: "right", opacity: 0.75 }}>
                {formatInZone(m.createdAt, timeZone, "dd/MM HH:mm")}
              </Typography>
            </Paper>
          );
        })}
      </Box>
      <Box
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
        sx={{ display: "flex", gap: 1, p: 1.5, borderTop: 1, borderColor: "divider", alignItems: "flex-end" }}
      >
        <TextField
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              void send();
            }
          }}
          placeholder={t("chats.typeMessage")}
          multiline
          maxRows={5}
          fullWidth
          size="small"
          slotProps={{ htmlInput: { "aria-label": t("chats.typeMessage"), maxLength: 10000 } }}
        />
        <Tooltip title={t("chats.send")}>
          <span>
            <IconButton type="submit" color="primary" disabled={!text.trim() || sending} aria-label={t("chats.send")}>
              <SendIcon />
            </IconButton>
          </span>
        </Tooltip>
      </Box>
    </Box>
  );
}
