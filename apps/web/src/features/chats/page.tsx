import { useState } from "react";
import { useNavigate, useParams } from "react-router-dom";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Box, Button, Paper, Tab, Tabs, Typography, useMediaQuery, useTheme } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import { useTranslation } from "react-i18next";
import type { Chat } from "@atende/shared";
import { ConfirmationDialog } from "../../components/confirmation-dialog";
import { EmptyState } from "../../components/empty-state";
import { SearchField } from "../../components/search-field";
import { useDebouncedValue } from "../../components/use-debounced-value";
import { usePagedList } from "../../components/use-paged-list";
import { toastError } from "../../lib/toast-error";
import { chatKeys, deleteChat, fetchChat, fetchChatsPage } from "./api/chats";
import { ChatDialog } from "./components/chat-dialog";
import { applyChatEvent } from "./components/chat-live";
import { ChatList } from "./components/chat-list";
import { ChatMessages } from "./components/chat-messages";

/** Internal chat (spec 3 §2): the chat list beside the open chat; under 600 px two tabs, 'Chats' and 'Mensagens'. */
export default function ChatsPage() {
  const { t } = useTranslation();
  const { uuid } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const narrow = useMediaQuery(useTheme().breakpoints.down("sm"));
  const [tab, setTab] = useState<"chats" | "messages">(uuid ? "messages" : "chats");
  const [search, setSearch] = useState("");
  const searchParam = useDebouncedValue(search.trim());
  const list = usePagedList({ queryKey: chatKeys.list(searchParam), fetchPage: (page, signal) => fetchChatsPage(searchParam, page, signal) });
  const open = useQuery({ queryKey: chatKeys.chat(uuid ?? ""), queryFn: ({ signal }) => fetchChat(uuid!, signal), enabled: !!uuid });
  const [dialog, setDialog] = useState<{ open: boolean; chat: Chat | null }>({ open: false, chat: null });
  const [deleting, setDeleting] = useState<Chat | null>(null);

  function openChat(c: Chat) {
    queryClient.setQueryData(chatKeys.chat(c.uuid), c);
    setTab("messages");
    navigate(`/chats/${c.uuid}`);
  }

  async function confirmDelete(c: Chat) {
    try {
      await deleteChat(c.id);
      applyChatEvent(queryClient, { action: "delete", id: c.id });
      if (c.uuid === uuid) navigate("/chats", { replace: true });
    } catch (err) {
      toastError(err);
    }
  }

  const chatPane = open.data ? (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%", minHeight: 0 }}>
      <Box sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: "divider" }}>
        <Typography variant="subtitle1" sx={{ fontWeight: 600 }} noWrap>
          {open.data.title}
        </Typography>
        <Typography variant="caption" color="text.secondary" noWrap component="div">
          {open.data.users.map((u) => u.user.name).join(", ")}
        </Typography>
      </Box>
      <ChatMessages key={open.data.id} chat={open.data} />
    </Box>
  ) : (
    <EmptyState>{open.isError ? t("chats.notFound") : t("chats.pick")}</EmptyState>
  );
  const listPane = (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%", minHeight: 0 }}>
      <Box sx={{ display: "flex", gap: 1, p: 1.5, borderBottom: 1, borderColor: "divider", alignItems: "center" }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <SearchField value={search} onChange={setSearch} placeholder={t("chats.search")} />
        </Box>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ open: true, chat: null })} sx={{ whiteSpace: "nowrap" }}>
          {t("chats.add")}
        </Button>
      </Box>
      <Box sx={{ flex: 1, overflowY: "auto" }} onScroll={list.onScroll}>
        <ChatList chats={list.items} selectedUuid={uuid} onOpen={openChat} onEdit={(c) => setDialog({ open: true, chat: c })} onDelete={setDeleting} />
        {list.isSuccess && list.items.length === 0 && <EmptyState>{t("chats.empty")}</EmptyState>}
      </Box>
    </Box>
  );

  return (
    <>
      <Paper variant="outlined" sx={{ height: "calc(100vh - 112px)", minHeight: 360, display: "flex", flexDirection: "column", overflow: "hidden" }}>
        {narrow ? (
          <>
            <Tabs value={tab} onChange={(_, v: "chats" | "messages") => setTab(v)} variant="fullWidth" sx={{ borderBottom: 1, borderColor: "divider" }}>
              <Tab value="chats" label={t("chats.tabs.chats")} />
              <Tab value="messages" label={t("chats.tabs.messages")} />
            </Tabs>
            <Box sx={{ flex: 1, minHeight: 0 }}>{tab === "chats" ? listPane : chatPane}</Box>
          </>
        ) : (
          <Box sx={{ display: "grid", gridTemplateColumns: "340px 1fr", flex: 1, minHeight: 0 }}>
            <Box sx={{ borderRight: 1, borderColor: "divider", minHeight: 0 }}>{listPane}</Box>
            <Box sx={{ minHeight: 0 }}>{chatPane}</Box>
          </Box>
        )}
      </Paper>
      <ChatDialog
        open={dialog.open}
        chat={dialog.chat}
        onClose={() => setDialog((d) => ({ ...d, open: false }))}
        onSaved={(c) => {
          applyChatEvent(queryClient, { action: dialog.chat ? "update" : "create", record: c });
          if (!dialog.chat) openChat(c);
        }}
      />
      <ConfirmationDialog open={deleting !== null} title={t("chats.deleteTitle", { title: deleting?.title ?? "" })} onClose={() => setDeleting(null)} onConfirm={() => deleting && void confirmDelete(deleting)}>
        {t("chats.deleteMessage")}
      </ConfirmationDialog>
    </>
  );
}
