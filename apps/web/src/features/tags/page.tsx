import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Chip, IconButton, Paper, Table, TableBody, TableCell, TableHead, TableRow, Tooltip } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import EditIcon from "@mui/icons-material/Edit";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import ViewKanbanIcon from "@mui/icons-material/ViewKanban";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { channel, type Tag } from "@atende/shared";
import { ConfirmationDialog } from "../../components/confirmation-dialog";
import { PageHeading } from "../../components/page-heading";
import { SearchField } from "../../components/search-field";
import { TableRowsSkeleton } from "../../components/table-rows-skeleton";
import { useDebouncedValue } from "../../components/use-debounced-value";
import { applyLiveEvent, removePagedItem, upsertPagedItem, usePagedList } from "../../components/use-paged-list";
import { useSocketEvent } from "../../lib/use-socket-event";
import { toastError } from "../../lib/toast-error";
import { useCurrentUser } from "../../lib/session";
import { deleteTag, fetchTagsPage, tagKeys } from "./api/tags";
import { TagDialog } from "./components/tag-dialog";
import { EmptyTableRow } from "../../components/empty-state";
import { colorChipSx } from "../../lib/contrast";


export default function TagsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const list = usePagedList({ queryKey: tagKeys.list(searchParam), fetchPage: (page, signal) => fetchTagsPage(searchParam, page, signal) });
  const [dialog, setDialog] = useState<{ open: boolean; tag: Tag | null }>({ open: false, tag: null });
  const [deleting, setDeleting] = useState<Tag | null>(null);

  useSocketEvent(channel.tag(user.companyId), (payload) => applyLiveEvent<Tag>(queryClient, tagKeys.lists, payload, "tag"));

  async function confirmDelete(tag: Tag) {
    try {
      await deleteTag(tag.id);
      removePagedItem(queryClient, tagKeys.lists, tag.id);
      toast.success(t("tags.deleted"));
    } catch (err) {
      toastError(err);
    }
  }

  return (
    <>
      <PageHeading title={t("tags.title")} count={list.data?.pages[0]?.count}>
        <SearchField value={search} onChange={setSearch} placeholder={t("tags.searchPlaceholder")} />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ open: true, tag: null })}>
          {t("tags.add")}
        </Button>
      </PageHeading>
      <Paper variant="outlined" onScroll={list.onScroll} sx={{ height: "calc(100vh - 170px)", minHeight: 320, overflow: "auto" }}>
        <Table size="small" stickyHeader aria-label={t("tags.title")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("tags.columns.name")}</TableCell>
              <TableCell align="center">{t("tags.columns.tickets")}</TableCell>
              <TableCell align="center">{t("tags.columns.kanban")}</TableCell>
              <TableCell align="right">{t("tags.columns.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map((tag) => (
              <TableRow key={tag.id} hover data-testid="tag-row">
                <TableCell>
                  <Chip label={tag.name} size="small" sx={{ ...colorChipSx(tag.color), fontWeight: 600, maxWidth: 360 }} />
                </TableCell>
                <TableCell align="center" data-testid="tag-tickets">
                  {tag.ticketsCount}
                </TableCell>
                <TableCell align="center">{tag.kanban === 1 && <ViewKanbanIcon fontSize="small" color="action" aria-label={t("tags.columns.kanban")} />}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  <Tooltip title={t("tags.actions.edit")}>
                    <IconButton size="small" aria-label={t("tags.actions.edit")} onClick={() => setDialog({ open: true, tag })}>
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t("tags.actions.delete")}>
                    <IconButton size="small" color="error" aria-label={t("tags.actions.delete")} onClick={() => setDeleting(tag)}>
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {(list.isLoading || list.isFetchingNextPage) && <TableRowsSkeleton columns={4} />}
            {list.isSuccess && list.items.length === 0 && (
              <EmptyTableRow colSpan={4}>{t("tags.empty")}</EmptyTableRow>
            )}
          </TableBody>
        </Table>
      </Paper>
      <TagDialog
        open={dialog.open}
        tag={dialog.tag}
        onClose={() => setDialog((d) => ({ ...d, open: false }))}
        onSaved={(tag) => upsertPagedItem(queryClient, tagKeys.lists, tag)}
      />
      <ConfirmationDialog open={deleting !== null} title={t("tags.deleteTitle", { name: deleting?.name ?? "" })} onClose={() => setDeleting(null)} onConfirm={() => deleting && void confirmDelete(deleting)}>
        {t("tags.deleteMessage")}
      </ConfirmationDialog>
    </>
  );
}
