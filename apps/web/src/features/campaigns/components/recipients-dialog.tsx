import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Table, TableBody, TableCell, TableHead, TableRow, Typography, Box } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { Campaign } from "@atende/shared";
import { toast } from "../../../lib/toast";
import { logFailure } from "../../../lib/log-failure";
import { campaignKeys, fetchRecipients } from "../api/campaigns";
import { TableRowsSkeleton } from "../../../components/table-rows-skeleton";

/** The invalid rows of a campaign with their reasons (GET /campaigns/{id}/recipients?state=invalid). */
export function RecipientsDialog({ campaign, onClose }: { campaign: Campaign | null; onClose(): void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const id = campaign?.id ?? 0;
  const rows = useQuery({ queryKey: campaignKeys.recipients(id, page), queryFn: ({ signal }) => fetchRecipients(id, page, signal), enabled: id > 0 });
  useEffect(() => setPage(1), [id]);
  useEffect(() => {
    if (rows.error) {
      logFailure("campaign recipients", rows.error, { campaignId: id });
      toast.error(t("campaigns.errors.recipients"));
    }
  }, [rows.error, id, t]);
  const pages = rows.data?.countPages ?? 0;
  return (
    <Dialog open={campaign !== null} onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>{t("campaigns.recipients.title", { name: campaign?.name ?? "" })}</DialogTitle>
      <DialogContent dividers>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t("campaigns.recipients.row")}</TableCell>
              <TableCell>{t("campaigns.recipients.phone")}</TableCell>
              <TableCell>{t("campaigns.recipients.reason")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.isLoading && <TableRowsSkeleton columns={3} />}
            {rows.data?.data.map((r) => (
              <TableRow key={r.id} data-testid="invalid-row">
                <TableCell>{r.rowNumber}</TableCell>
                <TableCell sx={{ wordBreak: "break-all" }}>{r.phone}</TableCell>
                <TableCell>{r.invalidReason}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {rows.isSuccess && rows.data.data.length === 0 && <Typography sx={{ p: 2 }}>{t("campaigns.recipients.none")}</Typography>}
      </DialogContent>
      <DialogActions>
        {pages > 1 && (
          <Box sx={{ display: "flex", alignItems: "center", gap: 1, mr: "auto" }}>
            <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {t("campaigns.pagination.previous")}
            </Button>
            <Typography variant="body2">{t("campaigns.pagination.page", { page, pages })}</Typography>
            <Button size="small" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              {t("campaigns.pagination.next")}
            </Button>
          </Box>
        )}
        <Button onClick={onClose}>{t("campaigns.recipients.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
