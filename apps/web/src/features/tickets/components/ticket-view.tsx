import { useCallback, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { Box, Button, CircularProgress, Drawer, Paper, Typography, type Theme } from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { channel } from "@atende/shared";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { deleteMessage } from "../api/messages";
import { fetchTicket, markTicketRead, ticketKeys } from "../api/tickets";
import { useMessages } from "../hooks/use-messages";
import { useChannel } from "../hooks/use-realtime";
import { useElementWidth } from "../hooks/use-element-width";
import { useTicketActions, type TicketAction } from "../hooks/use-ticket-actions";
import { canAccept, canEditTags, canReopen, canResume, inputBlock, showsActions, visibleTo, type InputBlock } from "../lib/rules";
import { cachedTicket } from "../offline/db";
import { ApiError } from "../../../lib/api";
import { toastError } from "../../../lib/toast-error";
import type { ContactRef, Message, Ticket } from "../types";
import { ConfirmDialog } from "./confirm-dialog";
import { ContactDrawer } from "./contact-drawer";
import { MessageInput } from "./message-input";
import { MessagesList } from "./messages-list";
import { TagBar } from "./tag-bar";
import { TicketHeader } from "./ticket-header";
import { useWorkspace } from "./workspace-context";
import { logFailure } from "../../../lib/log-failure";

function BlockedBar({ ticket, reason }: { ticket: Ticket; reason: Exclude<InputBlock, null> }) {
  const { t } = useTranslation();
  const { me } = useWorkspace();
  const { run, busy } = useTicketActions(me.id);
  const action: TicketAction | null =
    reason === "pending" && canAccept(me, ticket) && showsActions(me, ticket)
      ? "accept"
      : reason === "paused" && canResume(me, ticket)
        ? "resume"
        : reason === "closed" && canReopen(me, ticket)
          ? "reopen"
          : null;
  return (
    <Paper square elevation={0} sx={{ borderTop: 1, borderColor: "divider", px: 2, py: 1.5, display: "flex", alignItems: "center", justifyContent: "center", gap: 2, flexWrap: "wrap", bgcolor: "background.default" }} data-testid="input-blocked">
      <Typography variant="body2" color="text.secondary">
        {t(`tickets.blocked.${reason}`, { name: ticket.user?.name ?? "" })}
      </Typography>
      {action && (
        <Button size="small" variant="contained" color={action === "reopen" ? "primary" : "success"} disabled={busy === ticket.id} onClick={() => void run(action, ticket)} data-testid={`blocked-${action}`}>
          {t(`tickets.actions.${action}`)}
        </Button>
      )}
    </Paper>
  );
}

/** The open conversation: header, tags, messages, input and the contact panel. */
export function TicketView({ uuid, onBack }: { uuid: string; onBack?: () => void }) {
  const { t } = useTranslation();
  const { me, narrow, statusOf } = useWorkspace();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const key = ticketKeys.one(uuid);
  const { data: ticket, error } = useQuery({ queryKey: key, queryFn: () => fetchTicket(uuid), staleTime: 0 });
  const [drawer, setDrawer] = useState(false);
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [toDelete, setToDelete] = useState<Message | null>(null);
  // The conversation column's own width decides how much the header and input can show.
  const [column, columnWidth] = useElementWidth();
  const compact = narrow || (columnWidth > 0 && columnWidth < 640);

  // The cached copy shows at once while the server answers.
  useEffect(() => {
    void cachedTicket(uuid).then((c) => {
      if (c && visibleTo(me, c, true) && !qc.getQueryData(key)) qc.setQueryData(key, c);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [uuid]);

  useEffect(() => {
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) {
      toastError(error);
      navigate("/tickets", { replace: true });
    }
  }, [error, navigate]);

  const ticketId = ticket?.id;
  const readPending = useRef(false);
  const markRead = useCallback(() => {
    if (!ticketId || readPending.current) return;
    readPending.current = true;
    markTicketRead(ticketId)
      .catch((err: unknown) => logFailure("marking the ticket read failed", err, { ticketId }))
      .finally(() => {
        readPending.current = false;
      });
  }, [ticketId]);

  useEffect(() => {
    if (ticketId) markRead();
    setReplyTo(null);
  }, [ticketId, markRead]);

  const onIncoming = useCallback(
    (m: Message) => {
      if (!m.fromMe && document.visibilityState === "visible") markRead();
    },
    [markRead],
  );
  const { state, loadOlder, add } = useMessages(ticketId, me.companyId, onIncoming);

  useChannel<{ action: string; ticket?: Ticket; ticketId?: number }>(channel.ticket(me.companyId), (d) => {
    if (!ticketId) return;
    if (d.action === "update" && d.ticket?.id === ticketId) qc.setQueryData(key, d.ticket);
    if (d.action === "delete" && d.ticketId === ticketId) {
      toast.info(t("tickets.view.deleted"));
      navigate("/tickets", { replace: true });
    }
  });
  useChannel<{ action: string; contact?: ContactRef }>(channel.contact(me.companyId), (d) => {
    if (d.action === "update" && d.contact && d.contact.id === ticket?.contactId) {
      qc.setQueryData<Ticket>(key, (old) => (old ? { ...old, contact: { ...old.contact, ...d.contact } } : old));
    }
  });

  async function removeMessage(m: Message) {
    try {
      await deleteMessage(m.id);
      add({ ...m, isDeleted: true });
    } catch (err) {
      toastError(err);
    }
  }

  if (!ticket) {
    return (
      <Box sx={{ height: "100%", display: "grid", placeItems: "center" }}>
        <CircularProgress />
      </Box>
    );
  }

  const block = inputBlock(me, ticket, statusOf(ticket.whatsappId));
  const contactPanel = <ContactDrawer ticket={ticket} onClose={() => setDrawer(false)} />;
  return (
    <Box sx={{ display: "flex", height: "100%", minHeight: 0 }} data-testid="ticket-view" data-ticket-id={ticket.id} data-status={ticket.status}>
      <Box ref={column} sx={{ flex: 1, display: "flex", flexDirection: "column", minWidth: 0, minHeight: 0 }}>
        <TicketHeader ticket={ticket} compact={compact} onOpenContact={() => setDrawer((d) => !d)} onBack={onBack} />
        <TagBar ticket={ticket} editable={canEditTags(me, ticket)} />
        <MessagesList
          ticket={ticket}
          messages={state.messages}
          hidden={state.hidden}
          hasMore={state.hasMore}
          loading={state.loading}
          meId={me.id}
          onLoadOlder={loadOlder}
          onReply={setReplyTo}
          onDelete={setToDelete}
        />
        {block ? (
          <BlockedBar ticket={ticket} reason={block} />
        ) : (
          <MessageInput
            key={ticket.id}
            ticket={ticket}
            compact={compact}
            replyTo={replyTo}
            onCancelReply={() => setReplyTo(null)}
            onSent={(list) => list.forEach(add)}
            onTicketReplaced={(tk) => qc.setQueryData(key, tk)}
          />
        )}
      </Box>
      {narrow ? (
        <Drawer
          anchor="right"
          open={drawer}
          onClose={() => setDrawer(false)}
          // below the fixed app bar (which stacks above drawers), so the title and close button show
          slotProps={{ paper: { sx: (theme) => ({ ...toolbarOffset(theme), maxWidth: "100vw" }) } }}
        >
          {contactPanel}
        </Drawer>
      ) : (
        drawer && contactPanel
      )}
      <ConfirmDialog
        open={toDelete !== null}
        danger
        title={t("tickets.messages.deleteTitle")}
        text={t("tickets.messages.deleteText")}
        onClose={() => setToDelete(null)}
        onConfirm={() => toDelete && void removeMessage(toDelete)}
      />
    </Box>
  );
}

/** Top and height of a right drawer that starts under the app bar (the toolbar's height per breakpoint). */
function toolbarOffset(theme: Theme) {
  const heights = [
    [theme.breakpoints.up("xs"), 56],
    ["@media (min-width:0px) and (orientation: landscape)", 48],
    [theme.breakpoints.up("sm"), 64],
  ] as const;
  return Object.fromEntries(heights.map(([query, px]) => [query, { top: px, height: `calc(100% - ${px}px)` }]));
}
