import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { INVALID_ROWS_PAGE_SIZE, type InvalidRowsPage } from "@atende/shared";
import { toast } from "../../../lib/toast";
import { logFailure } from "../../../lib/log-failure";
import { TableRowsSkeleton } from "../../../components/table-rows-skeleton";

interface Props {
  /** The campaign whose rows are shown; null closes the dialog. */
  campaign: { id: number; title: string } | null;
  /** Which address the channel writes to: the phone (SMS) or the e-mail. */
  address: "phone" | "email";
  queryKey: (id: number, page: number) => readonly unknown[];
  fetchPage(id: number, page: number, signal?: AbortSignal): Promise<InvalidRowsPage>;
  onClose(): void;
}

/**
 * The invalid rows of an SMS or e-mail campaign with their reasons (GET …/invalid-rows/), paged like the
 * WhatsApp list's dialog: rows found invalid by the analysis and rows never sent (skipped).
 */
export function InvalidRowsDialog({ campaign, address, queryKey, fetchPage, onClose }: Props) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const id = campaign?.id ?? 0;
  const rows = useQuery({ queryKey: queryKey(id, page), queryFn: ({ signal }) => fetchPage(id, page, signal), enabled: id > 0 });
  useEffect(() => setPage(1), [id]);
  useEffect(() => {
    if (rows.error) {
      logFailure("campaign invalid rows", rows.error, { campaignId: id });
      toast.error(t("campaigns.errors.recipients"));
    }
  }, [rows.error, id, t]);
  const pages = Math.ceil((rows.data?.count ?? 0) / INVALID_ROWS_PAGE_SIZE);
  return (
    <Dialog open={campaign !== null} onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>{t("campaigns.recipients.title", { name: campaign?.title ?? "" })}</DialogTitle>
      <DialogContent dividers>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t("campaigns.recipients.row")}</TableCell>
              <TableCell>{t(address === "phone" ? "campaigns.recipients.phone" : "campaigns.recipients.email")}</TableCell>
              <TableCell>{t("campaigns.recipients.reason")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.isLoading && <TableRowsSkeleton columns={3} />}
            {rows.data?.results.map((r) => (
              <TableRow key={r.id} data-testid="invalid-row">
                <TableCell>{r.row_number}</TableCell>
                <TableCell sx={{ wordBreak: "break-all" }}>{address === "phone" ? r.phone : r.email}</TableCell>
                <TableCell>{r.reason}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {rows.isSuccess && rows.data.results.length === 0 && <Typography sx={{ p: 2 }}>{t("campaigns.recipients.none")}</Typography>}
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
