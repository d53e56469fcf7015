import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Chip, IconButton, Paper, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, Typography } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import EditIcon from "@mui/icons-material/Edit";
import { useTranslation } from "react-i18next";
import { canVisit, channel, type QueueIntegration, type QueueIntegrationEvent } from "@atende/shared";
import { ConfirmationDialog } from "../../components/confirmation-dialog";
import { EmptyTableRow } from "../../components/empty-state";
import { PageHeading } from "../../components/page-heading";
import { SearchField } from "../../components/search-field";
import { TableRowsSkeleton } from "../../components/table-rows-skeleton";
import { useAccessDenied } from "../../components/use-access-denied";
import { useDebouncedValue } from "../../components/use-debounced-value";
import { removePagedItem, upsertPagedItem, usePagedList } from "../../components/use-paged-list";
import { useCurrentUser } from "../../lib/session";
import { toast } from "../../lib/toast";
import { toastError } from "../../lib/toast-error";
import { useSocketEvent } from "../../lib/use-socket-event";
import { deleteIntegration, fetchIntegrationsPage, queueIntegrationKeys } from "./api/queue-integrations";
import { IntegrationDialog } from "./components/integration-dialog";

/** Queue integrations (spec 3 §2, §6): super users of a company whose plan has useIntegrations; anyone else is told so and sent to / after 1 s. */
export default function QueueIntegrationPage() {
  const user = useCurrentUser();
  const { t } = useTranslation();
  const allowed = canVisit(user, user.company.plan, "/queue-integration");
  useAccessDenied(allowed, t("queueIntegration.noPermission"), "/");
  return allowed ? <IntegrationsManager /> : null;
}

function IntegrationsManager() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const searchParam = useDebouncedValue(search.trim());
  const list = usePagedList({ queryKey: queueIntegrationKeys.list(searchParam), fetchPage: (page, signal) => fetchIntegrationsPage(searchParam, page, signal) });
  const [dialog, setDialog] = useState<{ open: boolean; record: QueueIntegration | null }>({ open: false, record: null });
  const [deleting, setDeleting] = useState<QueueIntegration | null>(null);
  const user = useCurrentUser();
  useSocketEvent<QueueIntegrationEvent>(channel.queueIntegration(user.companyId), (payload) => {
    if (payload.action === "delete") removePagedItem(queryClient, queueIntegrationKeys.lists, payload.integrationId);
    else upsertPagedItem(queryClient, queueIntegrationKeys.lists, payload.queueIntegration);
    void queryClient.invalidateQueries({ queryKey: queueIntegrationKeys.options });
  });

  async function confirmDelete(r: QueueIntegration) {
    try {
      await deleteIntegration(r.id);
      removePagedItem(queryClient, queueIntegrationKeys.lists, r.id);
      toast.success(t("queueIntegration.deleted"));
    } catch (err) {
      toastError(err);
    }
  }

  return (
    <>
      <PageHeading title={t("queueIntegration.title")} count={list.data?.pages[0]?.count}>
        <SearchField value={search} onChange={setSearch} placeholder={t("queueIntegration.searchPlaceholder")} />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ open: true, record: null })}>
          {t("queueIntegration.add")}
        </Button>
      </PageHeading>
      <Paper variant="outlined" onScroll={list.onScroll} sx={{ height: "calc(100vh - 170px)", minHeight: 320, overflow: "auto" }}>
        <Table size="small" stickyHeader aria-label={t("queueIntegration.title")}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t("queueIntegration.columns.id")}</TableCell>
              <TableCell>{t("queueIntegration.columns.name")}</TableCell>
              <TableCell align="center">{t("queueIntegration.columns.type")}</TableCell>
              <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("queueIntegration.columns.target")}</TableCell>
              <TableCell align="right">{t("queueIntegration.columns.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map((r) => (
              <TableRow key={r.id} hover data-testid="integration-row">
                <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{r.id}</TableCell>
                <TableCell sx={{ maxWidth: 280 }}>
                  <Typography variant="body2" noWrap title={r.name} sx={{ fontWeight: 600 }}>
                    {r.name}
                  </Typography>
                </TableCell>
                <TableCell align="center">
                  <Chip size="small" variant="outlined" label={t(`queueIntegration.types.${r.type}`)} />
                </TableCell>
                <TableCell sx={{ display: { xs: "none", md: "table-cell" }, maxWidth: 360 }}>
                  <Typography variant="body2" color="text.secondary" noWrap title={r.type === "dialogflow" ? r.projectName : r.urlN8N}>
                    {r.type === "dialogflow" ? `${r.projectName} · ${r.language}` : r.type === "typebot" ? `${r.urlN8N} · ${r.typebotSlug}` : r.urlN8N}
                  </Typography>
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  <Tooltip title={t("queueIntegration.actions.edit")}>
                    <IconButton size="small" aria-label={t("queueIntegration.actions.edit")} onClick={() => setDialog({ open: true, record: r })}>
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t("queueIntegration.actions.delete")}>
                    <IconButton size="small" color="error" aria-label={t("queueIntegration.actions.delete")} onClick={() => setDeleting(r)}>
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {(list.isLoading || list.isFetchingNextPage) && <TableRowsSkeleton columns={5} />}
            {list.isSuccess && list.items.length === 0 && <EmptyTableRow colSpan={5}>{t("queueIntegration.empty")}</EmptyTableRow>}
          </TableBody>
        </Table>
      </Paper>
      <IntegrationDialog
        open={dialog.open}
        record={dialog.record}
        onClose={() => setDialog((d) => ({ ...d, open: false }))}
        onSaved={(r) => upsertPagedItem(queryClient, queueIntegrationKeys.lists, r)}
      />
      <ConfirmationDialog
        open={deleting !== null}
        title={t("queueIntegration.deleteTitle", { name: deleting?.name ?? "" })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && void confirmDelete(deleting)}
      >
        {t("queueIntegration.deleteMessage")}
      </ConfirmationDialog>
    </>
  );
}
