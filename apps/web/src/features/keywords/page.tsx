import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, IconButton, Paper, Table, TableBody, TableCell, TableHead, TableRow, Tooltip } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import EditIcon from "@mui/icons-material/Edit";
import { useTranslation } from "react-i18next";
import type { Keyword } from "@atende/shared";
import { ConfirmationDialog } from "../../components/confirmation-dialog";
import { EmptyTableRow } from "../../components/empty-state";
import { PageHeading } from "../../components/page-heading";
import { TableRowsSkeleton } from "../../components/table-rows-skeleton";
import { toast } from "../../lib/toast";
import { toastError } from "../../lib/toast-error";
import { deleteKeyword, fetchKeywords, keywordKeys } from "./api/keywords";
import { KeywordDialog } from "./components/keyword-dialog";

/** Keywords (spec 3 §2): the company's blocked words; they block campaign and template content while Options → block list is on. */
export default function KeywordsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: keywordKeys.all, queryFn: ({ signal }) => fetchKeywords(signal) });
  const [dialog, setDialog] = useState<{ open: boolean; record: Keyword | null }>({ open: false, record: null });
  const [deleting, setDeleting] = useState<Keyword | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: keywordKeys.all });

  async function confirmDelete(k: Keyword) {
    try {
      await deleteKeyword(k.id);
      toast.success(t("keywords.deleted"));
      refresh();
    } catch (err) {
      toastError(err);
    }
  }

  return (
    <>
      <PageHeading title={t("keywords.title")} count={list.data?.length}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ open: true, record: null })}>
          {t("keywords.add")}
        </Button>
      </PageHeading>
      <Alert severity="info" sx={{ mb: 2 }}>
        {t("keywords.explain")}
      </Alert>
      <Paper variant="outlined" sx={{ maxHeight: "calc(100vh - 230px)", overflow: "auto" }}>
        <Table size="small" stickyHeader aria-label={t("keywords.title")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("keywords.columns.word")}</TableCell>
              <TableCell align="right">{t("keywords.columns.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.data?.map((k) => (
              <TableRow key={k.id} hover data-testid="keyword-row">
                <TableCell sx={{ overflowWrap: "anywhere" }}>{k.word}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  <Tooltip title={t("keywords.actions.edit")}>
                    <IconButton size="small" aria-label={t("keywords.actions.edit")} onClick={() => setDialog({ open: true, record: k })}>
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t("keywords.actions.delete")}>
                    <IconButton size="small" color="error" aria-label={t("keywords.actions.delete")} onClick={() => setDeleting(k)}>
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {list.isLoading && <TableRowsSkeleton columns={2} />}
            {list.isSuccess && list.data.length === 0 && <EmptyTableRow colSpan={2}>{t("keywords.empty")}</EmptyTableRow>}
          </TableBody>
        </Table>
      </Paper>
      <KeywordDialog open={dialog.open} record={dialog.record} onClose={() => setDialog((d) => ({ ...d, open: false }))} onSaved={refresh} />
      <ConfirmationDialog open={deleting !== null} title={t("keywords.deleteTitle", { word: deleting?.word ?? "" })} onClose={() => setDeleting(null)} onConfirm={() => deleting && void confirmDelete(deleting)}>
        {t("keywords.deleteMessage")}
      </ConfirmationDialog>
    </>
  );
}
