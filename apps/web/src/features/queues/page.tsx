import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Chip, IconButton, Paper, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, Typography } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import EditIcon from "@mui/icons-material/Edit";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { channel, type Queue, type QueueEvent } from "@atende/shared";
import { ConfirmationDialog } from "../../components/confirmation-dialog";
import { PageHeading } from "../../components/page-heading";
import { TableRowsSkeleton } from "../../components/table-rows-skeleton";
import { useSocketEvent } from "../../lib/use-socket-event";
import { toastError } from "../../lib/toast-error";
import { useCurrentUser } from "../../lib/session";
import { deleteQueue, fetchQueues, queueKeys } from "./api/queues";
import { QueueDialog } from "./components/queue-dialog";
import { EmptyTableRow } from "../../components/empty-state";
import { colorChipSx } from "../../lib/contrast";

function sortQueues(list: Queue[]): Queue[] {
  return [...list].sort((a, b) => (a.orderQueue ?? Number.MAX_SAFE_INTEGER) - (b.orderQueue ?? Number.MAX_SAFE_INTEGER) || a.name.localeCompare(b.name));
}

export default function QueuesPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const queues = useQuery({ queryKey: queueKeys.all, queryFn: fetchQueues });
  const [dialog, setDialog] = useState<{ open: boolean; queue: Queue | null }>({ open: false, queue: null });
  const [deleting, setDeleting] = useState<Queue | null>(null);

  const upsert = (q: Queue) =>
    queryClient.setQueryData<Queue[]>(queueKeys.all, (old = []) => (old.some((x) => x.id === q.id) ? old.map((x) => (x.id === q.id ? q : x)) : [...old, q]));
  const remove = (id: number) => queryClient.setQueryData<Queue[]>(queueKeys.all, (old = []) => old.filter((x) => x.id !== id));

  useSocketEvent<QueueEvent>(channel.queue(user.companyId), (e) => {
    if (e.action === "delete") remove(e.queueId);
    else if (e.queue) upsert(e.queue);
  });

  async function confirmDelete(q: Queue) {
    try {
      await deleteQueue(q.id);
      remove(q.id);
      toast.success(t("queues.deleted"));
    } catch (err) {
      toastError(err);
    }
  }

  const rows = sortQueues(queues.data ?? []);
  return (
    <>
      <PageHeading title={t("queues.title")} count={queues.data?.length}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ open: true, queue: null })}>
          {t("queues.add")}
        </Button>
      </PageHeading>
      <Paper variant="outlined" sx={{ overflow: "auto" }}>
        <Table size="small" aria-label={t("queues.title")}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 64 }}>{t("queues.columns.id")}</TableCell>
              <TableCell>{t("queues.columns.name")}</TableCell>
              <TableCell>{t("queues.columns.color")}</TableCell>
              <TableCell>{t("queues.columns.order")}</TableCell>
              <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("queues.columns.greeting")}</TableCell>
              <TableCell align="right">{t("queues.columns.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((q) => (
              <TableRow key={q.id} hover data-testid="queue-row">
                <TableCell>{q.id}</TableCell>
                <TableCell>
                  <Typography fontWeight={500}>{q.name}</Typography>
                </TableCell>
                <TableCell>
                  <Chip size="small" label={q.color} data-testid="queue-color-chip" sx={{ ...colorChipSx(q.color), fontFamily: "monospace" }} />
                </TableCell>
                <TableCell>{q.orderQueue ?? "-"}</TableCell>
                <TableCell sx={{ display: { xs: "none", md: "table-cell" }, maxWidth: 360 }}>
                  <Typography variant="body2" noWrap title={q.greetingMessage}>
                    {q.greetingMessage}
                  </Typography>
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  <Tooltip title={t("queues.actions.edit")}>
                    <IconButton size="small" aria-label={t("queues.actions.edit")} onClick={() => setDialog({ open: true, queue: q })}>
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t("queues.actions.delete")}>
                    <IconButton size="small" color="error" aria-label={t("queues.actions.delete")} onClick={() => setDeleting(q)}>
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {queues.isLoading && <TableRowsSkeleton columns={6} />}
            {queues.isSuccess && rows.length === 0 && (
              <EmptyTableRow colSpan={6}>{t("queues.empty")}</EmptyTableRow>
            )}
          </TableBody>
        </Table>
      </Paper>
      <QueueDialog open={dialog.open} queue={dialog.queue} onClose={() => setDialog((d) => ({ ...d, open: false }))} onSaved={upsert} />
      <ConfirmationDialog
        open={deleting !== null}
        title={t("queues.deleteTitle", { name: deleting?.name ?? "" })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && void confirmDelete(deleting)}
      >
        {t("queues.deleteMessage")}
      </ConfirmationDialog>
    </>
  );
}
