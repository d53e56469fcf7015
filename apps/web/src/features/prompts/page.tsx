import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Box, Button, IconButton, Paper, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, Typography } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import EditIcon from "@mui/icons-material/Edit";
import { useTranslation } from "react-i18next";
import { canVisit, channel, type Prompt, type PromptEvent } from "@atende/shared";
import { ConfirmationDialog } from "../../components/confirmation-dialog";
import { EmptyTableRow } from "../../components/empty-state";
import { PageHeading } from "../../components/page-heading";
import { TableRowsSkeleton } from "../../components/table-rows-skeleton";
import { useAccessDenied } from "../../components/use-access-denied";
import { useCurrentUser } from "../../lib/session";
import { toast } from "../../lib/toast";
import { toastError } from "../../lib/toast-error";
import { useSocketEvent } from "../../lib/use-socket-event";
import { deletePrompt, fetchPrompts, promptKeys } from "./api/prompts";
import { PromptDialog } from "./components/prompt-dialog";

/** AI prompts (spec 3 §2, 1-core §6): super users of a company whose plan has useOpenAi; anyone else is told so and sent to / after 1 s. */
export default function PromptsPage() {
  const user = useCurrentUser();
  const { t } = useTranslation();
  const allowed = canVisit(user, user.company.plan, "/prompts");
  useAccessDenied(allowed, t(user.super ? "prompts.noPlan" : "prompts.noPermission"), "/");
  return allowed ? <PromptsManager /> : null;
}

function upsert(list: Prompt[] | undefined, p: Prompt): Prompt[] {
  const rest = (list ?? []).filter((x) => x.id !== p.id);
  return [...rest, p].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

function PromptsManager() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: promptKeys.all, queryFn: ({ signal }) => fetchPrompts(signal) });
  const [dialog, setDialog] = useState<{ open: boolean; record: Prompt | null }>({ open: false, record: null });
  const [deleting, setDeleting] = useState<Prompt | null>(null);
  const setList = (fn: (l: Prompt[] | undefined) => Prompt[]) => queryClient.setQueryData<Prompt[]>(promptKeys.all, fn);
  useSocketEvent<PromptEvent>(channel.prompt(me.companyId), (e) => {
    if (e.action === "delete") setList((l) => (l ?? []).filter((p) => p.id !== e.promptId));
    else setList((l) => upsert(l, e.prompt));
  });

  async function confirmDelete(p: Prompt) {
    try {
      await deletePrompt(p.id);
      setList((l) => (l ?? []).filter((x) => x.id !== p.id));
      toast.success(t("prompts.deleted"));
    } catch (err) {
      toastError(err);
    }
  }

  return (
    <>
      <PageHeading title={t("prompts.title")} count={list.data?.length}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ open: true, record: null })}>
          {t("prompts.add")}
        </Button>
      </PageHeading>
      <Paper variant="outlined" sx={{ maxHeight: "calc(100vh - 170px)", overflow: "auto" }}>
        <Table size="small" stickyHeader aria-label={t("prompts.title")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("prompts.columns.name")}</TableCell>
              <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t("prompts.columns.queue")}</TableCell>
              <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("prompts.columns.model")}</TableCell>
              <TableCell align="center" sx={{ display: { xs: "none", md: "table-cell" } }}>{t("prompts.columns.maxTokens")}</TableCell>
              <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t("prompts.columns.voice")}</TableCell>
              <TableCell align="right">{t("prompts.columns.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.data?.map((p) => (
              <TableRow key={p.id} hover data-testid="prompt-row">
                <TableCell sx={{ maxWidth: 320 }}>
                  <Typography variant="body2" noWrap title={p.name} sx={{ fontWeight: 600 }}>
                    {p.name}
                  </Typography>
                </TableCell>
                <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>
                  {p.queue && (
                    <Box component="span" sx={{ display: "inline-flex", alignItems: "center", gap: 1 }}>
                      <Box component="span" sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: p.queue.color, flexShrink: 0 }} />
                      {p.queue.name}
                    </Box>
                  )}
                </TableCell>
                <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{p.model}</TableCell>
                <TableCell align="center" sx={{ display: { xs: "none", md: "table-cell" } }}>{p.maxTokens}</TableCell>
                <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{p.voice === "texto" ? t("prompts.voiceText") : p.voice.replace(/^pt-BR-|Neural$/g, "")}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  <Tooltip title={t("prompts.actions.edit")}>
                    <IconButton size="small" aria-label={t("prompts.actions.edit")} onClick={() => setDialog({ open: true, record: p })}>
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t("prompts.actions.delete")}>
                    <IconButton size="small" color="error" aria-label={t("prompts.actions.delete")} onClick={() => setDeleting(p)}>
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {list.isLoading && <TableRowsSkeleton columns={6} />}
            {list.isSuccess && list.data.length === 0 && <EmptyTableRow colSpan={6}>{t("prompts.empty")}</EmptyTableRow>}
          </TableBody>
        </Table>
      </Paper>
      <PromptDialog open={dialog.open} record={dialog.record} onClose={() => setDialog((d) => ({ ...d, open: false }))} onSaved={(p) => setList((l) => upsert(l, p))} />
      <ConfirmationDialog open={deleting !== null} title={t("prompts.deleteTitle", { name: deleting?.name ?? "" })} onClose={() => setDeleting(null)} onConfirm={() => deleting && void confirmDelete(deleting)}>
        {t("prompts.deleteMessage")}
      </ConfirmationDialog>
    </>
  );
}
