import { useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Box, Button, CircularProgress, Typography } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { channel, isAdmin, type AppMessageEvent, type Tag, type Ticket } from "@atende/shared";
import { ConfirmationDialog } from "../../components/confirmation-dialog";
import { PageHeading } from "../../components/page-heading";
import { useSocketEvent } from "../../lib/use-socket-event";
import { toastError } from "../../lib/toast-error";
import { useCurrentUser } from "../../lib/session";
import { addTicketTag, fetchKanbanTags, fetchKanbanTickets, kanbanKeys, removeLane, removeTicketTags } from "./api/kanban";
import { KanbanCard } from "./components/kanban-card";
import { KanbanLane } from "./components/kanban-lane";
import { LaneDialog } from "./components/lane-dialog";

const OPEN_LANE = "open";
const OPEN_COLOR = "#5C59A0";

export default function KanbanPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const queueIds = useMemo(() => user.queues.map((q) => q.id), [user.queues]);
  const ticketsKey = kanbanKeys.tickets(queueIds);
  const tags = useQuery({ queryKey: kanbanKeys.lanes, queryFn: fetchKanbanTags });
  const tickets = useQuery({ queryKey: ticketsKey, queryFn: () => fetchKanbanTickets(queueIds) });
  const admin = isAdmin(user);
  const [adding, setAdding] = useState(false);
  // The lane stays set while the confirmation fades out, so its title does not flicker.
  const [removing, setRemoving] = useState<Tag | null>(null);
  const [confirming, setConfirming] = useState(false);

  // Ticket changes elsewhere refresh the board (coalesced).
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refreshSoon = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void queryClient.invalidateQueries({ queryKey: kanbanKeys.all }), 500);
  };
  useSocketEvent(channel.ticket(user.companyId), refreshSoon);
  // a new customer's ticket arrives with its first message
  useSocketEvent<AppMessageEvent<Ticket>>(channel.appMessage(user.companyId), (e) => {
    if (e.action === "create" && e.ticket && !tickets.data?.some((x) => x.id === e.ticket?.id)) refreshSoon();
  });

  const lanes = tags.data ?? [];
  const laneIds = new Set(lanes.map((l) => String(l.id)));
  const byLane = new Map<string, Ticket[]>([[OPEN_LANE, []], ...lanes.map((l) => [String(l.id), []] as [string, Ticket[]])]);
  for (const ticket of tickets.data ?? []) {
    const laneTags = ticket.tags.filter((tag) => laneIds.has(String(tag.id)));
    if (laneTags.length === 0) byLane.get(OPEN_LANE)!.push(ticket);
    for (const tag of laneTags) byLane.get(String(tag.id))!.push(ticket);
  }

  async function move(ticketId: number, from: string, to: string) {
    const target = lanes.find((l) => String(l.id) === to);
    const previous = queryClient.getQueryData<Ticket[]>(ticketsKey);
    // Optimistic: the card shows in its new lane at once.
    queryClient.setQueryData<Ticket[]>(ticketsKey, (old = []) =>
      old.map((tk) => (tk.id === ticketId ? { ...tk, tags: target ? [{ id: target.id, name: target.name, color: target.color }] : [] } : tk)),
    );
    try {
      await removeTicketTags(ticketId);
      // One toast per move: 'added' for the new lane, 'removed' only when a lane tag was taken away for good.
      if (target) {
        await addTicketTag(ticketId, target.id);
        toast.success(t("kanban.added"));
      } else if (from !== OPEN_LANE) {
        toast.success(t("kanban.removed"));
      }
    } catch (err) {
      queryClient.setQueryData(ticketsKey, previous);
      toastError(err);
    } finally {
      void queryClient.invalidateQueries({ queryKey: kanbanKeys.all });
    }
  }

  async function dropLane(lane: Tag) {
    try {
      await removeLane(lane.id);
      toast.success(t("common.successOperation"));
    } catch (err) {
      toastError(err);
    } finally {
      void queryClient.invalidateQueries({ queryKey: kanbanKeys.all });
    }
  }

  const open = (ticket: Ticket) => navigate(`/tickets/${ticket.uuid}`);
  const loading = tags.isLoading || tickets.isLoading;
  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "calc(100vh - 100px)" }}>
      <PageHeading title={t("kanban.title")}>
        <Typography variant="body2" color="text.secondary">
          {t("kanban.dragHint")}
        </Typography>
        {admin && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
            {t("kanban.newLane")}
          </Button>
        )}
      </PageHeading>
      {tags.isSuccess && lanes.length === 0 && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t("kanban.noLanes")}
        </Alert>
      )}
      {loading ? (
        <Box sx={{ display: "grid", placeItems: "center", py: 6 }}>
          <CircularProgress />
        </Box>
      ) : (
        <Box sx={{ display: "flex", gap: 2, overflowX: "auto", flexGrow: 1, minHeight: 0, pb: 1, alignItems: "stretch" }}>
          <KanbanLane id={OPEN_LANE} title={t("kanban.open")} color={OPEN_COLOR} count={byLane.get(OPEN_LANE)!.length} onDropTicket={move}>
            {byLane.get(OPEN_LANE)!.map((tk) => (
              <KanbanCard key={tk.id} ticket={tk} laneId={OPEN_LANE} onOpen={open} />
            ))}
          </KanbanLane>
          {lanes.map((lane) => {
            const cards = byLane.get(String(lane.id)) ?? [];
            return (
              <KanbanLane key={lane.id} id={String(lane.id)} title={lane.name} color={lane.color} count={cards.length} onDropTicket={move} onRemove={
                  admin
                    ? () => {
                        setRemoving(lane);
                        setConfirming(true);
                      }
                    : undefined
                }>
                {cards.map((tk) => (
                  <KanbanCard key={tk.id} ticket={tk} laneId={String(lane.id)} onOpen={open} />
                ))}
              </KanbanLane>
            );
          })}
        </Box>
      )}
      <LaneDialog
        open={adding}
        onClose={() => setAdding(false)}
        onCreated={() => {
          toast.success(t("common.successOperation"));
          void queryClient.invalidateQueries({ queryKey: kanbanKeys.all });
        }}
      />
      <ConfirmationDialog
        open={confirming}
        title={t("kanban.removeLaneTitle", { name: removing?.name ?? "" })}
        confirmLabel={t("kanban.remove")}
        onClose={() => setConfirming(false)}
        onConfirm={() => removing && void dropLane(removing)}
      >
        {t("kanban.removeLaneText")}
      </ConfirmationDialog>
    </Box>
  );
}
