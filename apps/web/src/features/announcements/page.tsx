import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Button, IconButton, Paper, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, Typography } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import EditIcon from "@mui/icons-material/Edit";
import ImageOutlined from "@mui/icons-material/ImageOutlined";
import { useTranslation } from "react-i18next";
import { channel, type Announcement, type AnnouncementEvent } from "@atende/shared";
import { ConfirmationDialog } from "../../components/confirmation-dialog";
import { EmptyTableRow } from "../../components/empty-state";
import { PageHeading } from "../../components/page-heading";
import { SearchField } from "../../components/search-field";
import { TableRowsSkeleton } from "../../components/table-rows-skeleton";
import { useAccessDenied } from "../../components/use-access-denied";
import { useDebouncedValue } from "../../components/use-debounced-value";
import { applyLiveEvent, removePagedItem, upsertPagedItem, usePagedList } from "../../components/use-paged-list";
import { useCurrentUser } from "../../lib/session";
import { toast } from "../../lib/toast";
import { toastError } from "../../lib/toast-error";
import { formatInZone, useCompanyTimeZone } from "../../lib/time-zone";
import { useSocketEvent } from "../../lib/use-socket-event";
import { announcementKeys, deleteAnnouncement, fetchAnnouncementsPage } from "./api/announcements";
import { AnnouncementDialog } from "./components/announcement-dialog";
import { PriorityChip } from "./components/priority";

/** Announcements (spec 3 §2, §6): super administrators only; anyone else is told so and sent to / after 1 s. */
export default function AnnouncementsPage() {
  const user = useCurrentUser();
  const { t } = useTranslation();
  useAccessDenied(user.super, t("announcements.noPermission"), "/");
  return user.super ? <AnnouncementsManager /> : null;
}

function AnnouncementsManager() {
  const { t } = useTranslation();
  const timeZone = useCompanyTimeZone();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const searchParam = useDebouncedValue(search.trim());
  const list = usePagedList({ queryKey: announcementKeys.list(searchParam), fetchPage: (page, signal) => fetchAnnouncementsPage(searchParam, page, signal) });
  const [dialog, setDialog] = useState<{ open: boolean; record: Announcement | null }>({ open: false, record: null });
  const [deleting, setDeleting] = useState<Announcement | null>(null);
  useSocketEvent<AnnouncementEvent>(channel.announcement(), (payload) => applyLiveEvent<Announcement>(queryClient, announcementKeys.lists, payload, "record"));

  async function confirmDelete(r: Announcement) {
    try {
      await deleteAnnouncement(r.id);
      removePagedItem(queryClient, announcementKeys.lists, r.id);
      toast.success(t("announcements.deleted"));
    } catch (err) {
      toastError(err);
    }
  }

  return (
    <>
      <PageHeading title={t("announcements.title")} count={list.data?.pages[0]?.count}>
        <SearchField value={search} onChange={setSearch} placeholder={t("announcements.searchPlaceholder")} />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ open: true, record: null })}>
          {t("announcements.add")}
        </Button>
      </PageHeading>
      <Paper variant="outlined" onScroll={list.onScroll} sx={{ height: "calc(100vh - 170px)", minHeight: 320, overflow: "auto" }}>
        <Table size="small" stickyHeader aria-label={t("announcements.title")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("announcements.columns.title")}</TableCell>
              <TableCell align="center">{t("announcements.columns.priority")}</TableCell>
              <TableCell align="center" sx={{ display: { xs: "none", sm: "table-cell" } }}>{t("announcements.columns.image")}</TableCell>
              <TableCell align="center">{t("announcements.columns.status")}</TableCell>
              <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("announcements.columns.createdAt")}</TableCell>
              <TableCell align="right">{t("announcements.columns.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map((r) => (
              <TableRow key={r.id} hover data-testid="announcement-row">
                <TableCell sx={{ maxWidth: 360 }}>
                  <Typography variant="body2" noWrap title={r.title} sx={{ fontWeight: 600 }}>
                    {r.title}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" noWrap component="div" title={r.text}>
                    {r.text}
                  </Typography>
                </TableCell>
                <TableCell align="center">
                  <PriorityChip priority={r.priority} />
                </TableCell>
                <TableCell align="center" sx={{ display: { xs: "none", sm: "table-cell" } }}>
                  {r.mediaName && <ImageOutlined fontSize="small" color="action" titleAccess={r.mediaName} />}
                </TableCell>
                <TableCell align="center">
                  <Typography variant="body2" color={r.status ? "success.main" : "text.secondary"}>
                    {r.status ? t("announcements.status.active") : t("announcements.status.inactive")}
                  </Typography>
                </TableCell>
                <TableCell sx={{ display: { xs: "none", md: "table-cell" }, whiteSpace: "nowrap" }}>{formatInZone(r.createdAt, timeZone)}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  <Tooltip title={t("announcements.actions.edit")}>
                    <IconButton size="small" aria-label={t("announcements.actions.edit")} onClick={() => setDialog({ open: true, record: r })}>
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t("announcements.actions.delete")}>
                    <IconButton size="small" color="error" aria-label={t("announcements.actions.delete")} onClick={() => setDeleting(r)}>
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {(list.isLoading || list.isFetchingNextPage) && <TableRowsSkeleton columns={6} />}
            {list.isSuccess && list.items.length === 0 && <EmptyTableRow colSpan={6}>{t("announcements.empty")}</EmptyTableRow>}
          </TableBody>
        </Table>
      </Paper>
      <AnnouncementDialog
        open={dialog.open}
        record={dialog.record}
        onClose={() => setDialog((d) => ({ ...d, open: false }))}
        onSaved={(r) => upsertPagedItem(queryClient, announcementKeys.lists, r)}
      />
      <ConfirmationDialog
        open={deleting !== null}
        title={t("announcements.deleteTitle", { title: deleting?.title ?? "" })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && void confirmDelete(deleting)}
      >
        {t("announcements.deleteMessage")}
      </ConfirmationDialog>
    </>
  );
}
