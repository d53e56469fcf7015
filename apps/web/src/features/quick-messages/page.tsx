import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Chip, IconButton, Paper, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, Typography } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import EditIcon from "@mui/icons-material/Edit";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { channel, type QuickMessage } from "@atende/shared";
import { ConfirmationDialog } from "../../components/confirmation-dialog";
import { PageHeading } from "../../components/page-heading";
import { SearchField } from "../../components/search-field";
import { TableRowsSkeleton } from "../../components/table-rows-skeleton";
import { useDebouncedValue } from "../../components/use-debounced-value";
import { applyLiveEvent, removePagedItem, upsertPagedItem, usePagedList } from "../../components/use-paged-list";
import { useSocketEvent } from "../../lib/use-socket-event";
import { toastError } from "../../lib/toast-error";
import { useCurrentUser } from "../../lib/session";
import { WhatsAppText } from "../../components/whatsapp-text";
import { deleteQuickMessage, fetchQuickMessagesPage, quickMessageKeys } from "./api/quick-messages";
import { QuickMessageDialog } from "./components/quick-message-dialog";
import { EmptyTableRow } from "../../components/empty-state";

export default function QuickMessagesPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const searchParam = useDebouncedValue(search.trim());
  const list = usePagedList({
    queryKey: quickMessageKeys.list(searchParam),
    fetchPage: (page, signal) => fetchQuickMessagesPage(searchParam, page, user.id, signal),
  });
  const [dialog, setDialog] = useState<{ open: boolean; record: QuickMessage | null }>({ open: false, record: null });
  const [deleting, setDeleting] = useState<QuickMessage | null>(null);

  useSocketEvent(channel.quickMessage(user.companyId), (payload) => {
    const record = (payload as { record?: QuickMessage } | null)?.record;
    // Another user's personal reply is not for this list.
    if (record && !record.geral && record.userId !== user.id) return;
    applyLiveEvent<QuickMessage>(queryClient, quickMessageKeys.lists, payload, "record");
  });

  async function confirmDelete(r: QuickMessage) {
    try {
      await deleteQuickMessage(r.id);
      removePagedItem(queryClient, quickMessageKeys.lists, r.id);
      toast.success(t("quickMessages.deleted"));
    } catch (err) {
      toastError(err);
    }
  }

  return (
    <>
      <PageHeading title={t("quickMessages.title")} count={list.data?.pages[0]?.count}>
        <SearchField value={search} onChange={setSearch} placeholder={t("quickMessages.searchPlaceholder")} />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ open: true, record: null })}>
          {t("quickMessages.add")}
        </Button>
      </PageHeading>
      <Paper variant="outlined" onScroll={list.onScroll} sx={{ height: "calc(100vh - 170px)", minHeight: 320, overflow: "auto" }}>
        <Table size="small" stickyHeader aria-label={t("quickMessages.title")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("quickMessages.columns.shortcode")}</TableCell>
              <TableCell>{t("quickMessages.columns.message")}</TableCell>
              <TableCell align="center">{t("quickMessages.columns.scope")}</TableCell>
              <TableCell align="center">{t("quickMessages.columns.media")}</TableCell>
              <TableCell align="right">{t("quickMessages.columns.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map((r) => (
              <TableRow key={r.id} hover data-testid="quick-message-row">
                <TableCell sx={{ fontFamily: "monospace", fontWeight: 600, whiteSpace: "nowrap" }}>/{r.shortcode}</TableCell>
                <TableCell sx={{ maxWidth: 480 }}>
                  <Typography variant="body2" noWrap title={r.message}>
                    <WhatsAppText text={r.message} />
                  </Typography>
                </TableCell>
                <TableCell align="center">
                  <Chip size="small" variant={r.geral ? "filled" : "outlined"} color={r.geral ? "primary" : "default"} label={r.geral ? t("quickMessages.scope.general") : t("quickMessages.scope.personal")} />
                </TableCell>
                <TableCell align="center">{r.mediaName && <AttachFileIcon fontSize="small" color="action" titleAccess={r.mediaName} />}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  <Tooltip title={t("quickMessages.actions.edit")}>
                    <IconButton size="small" aria-label={t("quickMessages.actions.edit")} onClick={() => setDialog({ open: true, record: r })}>
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t("quickMessages.actions.delete")}>
                    <IconButton size="small" color="error" aria-label={t("quickMessages.actions.delete")} onClick={() => setDeleting(r)}>
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {(list.isLoading || list.isFetchingNextPage) && <TableRowsSkeleton columns={5} />}
            {list.isSuccess && list.items.length === 0 && (
              <EmptyTableRow colSpan={5}>{t("quickMessages.empty")}</EmptyTableRow>
            )}
          </TableBody>
        </Table>
      </Paper>
      <QuickMessageDialog
        open={dialog.open}
        record={dialog.record}
        onClose={() => setDialog((d) => ({ ...d, open: false }))}
        onSaved={(r) => upsertPagedItem(queryClient, quickMessageKeys.lists, r)}
      />
      <ConfirmationDialog open={deleting !== null} title={t("quickMessages.deleteTitle", { shortcode: deleting?.shortcode ?? "" })} onClose={() => setDeleting(null)} onConfirm={() => deleting && void confirmDelete(deleting)}>
        {t("quickMessages.deleteMessage")}
      </ConfirmationDialog>
    </>
  );
}
