import { useEffect, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Avatar, Box, Button, Chip, IconButton, Paper, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, Typography } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import EditIcon from "@mui/icons-material/Edit";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import ImageIcon from "@mui/icons-material/Image";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { channel, type Schedule } from "@atende/shared";
import { ConfirmationDialog } from "../../components/confirmation-dialog";
import { PageHeading } from "../../components/page-heading";
import { SearchField } from "../../components/search-field";
import { TableRowsSkeleton } from "../../components/table-rows-skeleton";
import { useDebouncedValue } from "../../components/use-debounced-value";
import { applyLiveEvent, removePagedItem, upsertPagedItem, usePagedList } from "../../components/use-paged-list";
import { useSocketEvent } from "../../lib/use-socket-event";
import { toastError } from "../../lib/toast-error";
import { useCurrentUser } from "../../lib/session";
import { formatInZone, useCompanyTimeZone } from "../../lib/time-zone";
import { deleteSchedule, fetchContact, fetchSchedulesPage, scheduleKeys } from "./api/schedules";
import { ScheduleDialog } from "./components/schedule-dialog";
import { STATUS_COLORS } from "./components/schedule-status";
import { EmptyTableRow } from "../../components/empty-state";


export default function SchedulesPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  // times as entered: the company's wall clock
  const timeZone = useCompanyTimeZone();
  const when = (iso: string | null) => (iso ? formatInZone(iso, timeZone) : "-");
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState("");
  const searchParam = useDebouncedValue(search.trim());
  const list = usePagedList({ queryKey: scheduleKeys.list(searchParam), fetchPage: (page, signal) => fetchSchedulesPage(searchParam, page, signal) });
  const [dialog, setDialog] = useState<{ open: boolean; schedule: Schedule | null }>({ open: false, schedule: null });
  const [deleting, setDeleting] = useState<Schedule | null>(null);

  // /schedules?contactId=N opens the add dialog for that contact.
  const contactId = Number(params.get("contactId"));
  const linked = useQuery({ queryKey: scheduleKeys.contact(contactId), queryFn: () => fetchContact(contactId), enabled: contactId > 0 });
  useEffect(() => {
    if (contactId > 0 && (linked.isSuccess || linked.isError)) setDialog({ open: true, schedule: null });
  }, [contactId, linked.isSuccess, linked.isError]);

  useSocketEvent(channel.schedule(user.companyId), (payload) => applyLiveEvent<Schedule>(queryClient, scheduleKeys.lists, payload, "schedule"));

  function close() {
    setDialog((d) => ({ ...d, open: false }));
    if (params.has("contactId")) {
      params.delete("contactId");
      setParams(params, { replace: true });
    }
  }

  async function confirmDelete(s: Schedule) {
    try {
      await deleteSchedule(s.id);
      removePagedItem(queryClient, scheduleKeys.lists, s.id);
      toast.success(t("schedules.deleted"));
    } catch (err) {
      toastError(err);
    }
  }

  return (
    <>
      <PageHeading title={t("schedules.title")} count={list.data?.pages[0]?.count}>
        <SearchField value={search} onChange={setSearch} placeholder={t("schedules.searchPlaceholder")} />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ open: true, schedule: null })}>
          {t("schedules.add")}
        </Button>
      </PageHeading>
      <Paper variant="outlined" onScroll={list.onScroll} sx={{ height: "calc(100vh - 170px)", minHeight: 320, overflow: "auto" }}>
        <Table size="small" stickyHeader aria-label={t("schedules.title")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("schedules.columns.contact")}</TableCell>
              <TableCell>{t("schedules.columns.body")}</TableCell>
              <TableCell>{t("schedules.columns.sendAt")}</TableCell>
              <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("schedules.columns.sentAt")}</TableCell>
              <TableCell>{t("schedules.columns.status")}</TableCell>
              <TableCell align="right">{t("schedules.columns.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map((s) => (
              <TableRow key={s.id} hover data-testid="schedule-row" onClick={() => setDialog({ open: true, schedule: s })} sx={{ cursor: "pointer" }}>
                <TableCell>
                  <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
                    <Avatar src={s.contact.profilePicUrl || undefined} sx={{ width: 28, height: 28 }}>
                      {s.contact.name.charAt(0).toUpperCase()}
                    </Avatar>
                    <Typography variant="body2" fontWeight={500}>
                      {s.contact.name}
                    </Typography>
                  </Box>
                </TableCell>
                <TableCell sx={{ maxWidth: 380 }}>
                  <Box sx={{ display: "flex", alignItems: "center", gap: 0.5 }}>
                    {s.mediaName && <ImageIcon fontSize="small" color="action" />}
                    <Typography variant="body2" noWrap title={s.body}>
                      {s.body}
                    </Typography>
                  </Box>
                </TableCell>
                <TableCell sx={{ whiteSpace: "nowrap" }}>{when(s.sendAt)}</TableCell>
                <TableCell sx={{ whiteSpace: "nowrap", display: { xs: "none", md: "table-cell" } }}>{when(s.sentAt)}</TableCell>
                <TableCell>
                  <Chip size="small" label={t(`schedules.status.${s.status}`)} color={STATUS_COLORS[s.status]} title={s.error ?? undefined} />
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }} onClick={(e) => e.stopPropagation()}>
                  <Tooltip title={t("schedules.actions.edit")}>
                    <IconButton size="small" aria-label={t("schedules.actions.edit")} onClick={() => setDialog({ open: true, schedule: s })}>
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t("schedules.actions.delete")}>
                    <IconButton size="small" color="error" aria-label={t("schedules.actions.delete")} onClick={() => setDeleting(s)}>
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {(list.isLoading || list.isFetchingNextPage) && <TableRowsSkeleton columns={6} />}
            {list.isSuccess && list.items.length === 0 && (
              <EmptyTableRow colSpan={6}>{t("schedules.empty")}</EmptyTableRow>
            )}
          </TableBody>
        </Table>
      </Paper>
      <ScheduleDialog
        open={dialog.open}
        schedule={dialog.schedule}
        initialContact={contactId > 0 ? (linked.data ?? null) : null}
        onClose={close}
        onSaved={(s) => upsertPagedItem(queryClient, scheduleKeys.lists, s)}
      />
      <ConfirmationDialog open={deleting !== null} title={t("schedules.deleteTitle")} onClose={() => setDeleting(null)} onConfirm={() => deleting && void confirmDelete(deleting)}>
        {t("schedules.deleteMessage")}
      </ConfirmationDialog>
    </>
  );
}
