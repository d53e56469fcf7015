import { useState } from "react";
import {
  Button, Dialog, DialogActions, DialogContent, DialogTitle, Link, Table, TableBody, TableCell, TableContainer, TableHead, TablePagination, TableRow, Typography,
  useMediaQuery, useTheme,
} from "@mui/material";
import DownloadIcon from "@mui/icons-material/Download";
import { Link as RouterLink } from "react-router-dom";
import { useTranslation } from "react-i18next";
import { REPORT_PAGE_SIZE } from "@atende/shared";
import { EmptyTableRow } from "../../../components/empty-state";
import { TableRowsSkeleton } from "../../../components/table-rows-skeleton";
import { logFailure } from "../../../lib/log-failure";
import { formatInZone, useCompanyTimeZone } from "../../../lib/time-zone";
import { toast } from "../../../lib/toast";
import { downloadTicketsCsv, useReportTickets, type TicketListParams } from "../api/tickets";
import { formatDuration } from "../filter";

/** The tickets behind a figure or a row, 40 a page, each linking to its conversation; the same list as CSV. */
export function TicketListDialog({ params, title, onClose }: { params: TicketListParams; title: string; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down("sm"));
  const timeZone = useCompanyTimeZone();
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const { data, isPending } = useReportTickets(params, page);

  async function exportCsv() {
    setExporting(true);
    try {
      await downloadTicketsCsv(params, i18n.language.slice(0, 2));
    } catch (err) {
      logFailure("reports: CSV export", err);
      toast.error(t("reports.list.exportFailed"));
    } finally {
      setExporting(false);
    }
  }

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="lg" fullScreen={fullScreen} aria-labelledby="report-list-title">
      <DialogTitle id="report-list-title">
        {title}
        {data && (
          <Typography component="span" color="text.secondary" sx={{ ml: 1 }} data-testid="report-list-total">
            ({data.total})
          </Typography>
        )}
      </DialogTitle>
      <DialogContent dividers sx={{ p: 0 }}>
        <TableContainer>
          <Table size="small" stickyHeader data-testid="report-ticket-list">
            <TableHead>
              <TableRow>
                <TableCell>#</TableCell>
                <TableCell>{t("reports.list.contact")}</TableCell>
                <TableCell>{t("reports.list.status")}</TableCell>
                <TableCell>{t("reports.list.agent")}</TableCell>
                <TableCell>{t("reports.list.queue")}</TableCell>
                <TableCell>{t("reports.list.entered")}</TableCell>
                <TableCell align="right">{t("reports.list.firstResponseTime")}</TableCell>
                <TableCell align="right">{t("reports.list.resolutionTime")}</TableCell>
                <TableCell align="right">{t("reports.list.rating_col")}</TableCell>
                <TableCell align="right">{t("reports.list.messages")}</TableCell>
                <TableCell align="right">{t("reports.list.held")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {isPending || !data ? (
                <TableRowsSkeleton rows={5} columns={11} />
              ) : data.items.length === 0 ? (
                <EmptyTableRow colSpan={11}>{t("reports.list.empty")}</EmptyTableRow>
              ) : (
                data.items.map((i) => (
                  <TableRow key={i.cycleId} hover data-testid="report-ticket-row">
                    <TableCell>
                      <Link component={RouterLink} to={`/tickets/${i.uuid}`} title={t("reports.list.open")}>
                        {i.ticketId}
                      </Link>
                    </TableCell>
                    <TableCell sx={{ maxWidth: 200, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>
                      <Link component={RouterLink} to={`/tickets/${i.uuid}`} data-testid="report-ticket-link">
                        {i.contactName}
                      </Link>
                    </TableCell>
                    <TableCell>{t(`reports.filter.statuses.${i.status}`)}</TableCell>
                    <TableCell>{i.userName ?? "—"}</TableCell>
                    <TableCell>{i.queueName ?? "—"}</TableCell>
                    <TableCell sx={{ whiteSpace: "nowrap" }}>{formatInZone(i.queuedAt, timeZone)}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>{formatDuration(i.firstResponseSeconds)}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>{formatDuration(i.resolutionSeconds)}</TableCell>
                    <TableCell align="right">{i.rating ?? "—"}</TableCell>
                    <TableCell align="right" data-testid="report-ticket-messages">{i.messages}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: "nowrap" }} data-testid="report-ticket-held">{formatDuration(i.heldSeconds)}</TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination
          component="div"
          count={data?.total ?? 0}
          page={page - 1}
          rowsPerPage={REPORT_PAGE_SIZE}
          rowsPerPageOptions={[REPORT_PAGE_SIZE]}
          onPageChange={(_, p) => setPage(p + 1)}
        />
      </DialogContent>
      <DialogActions>
        <Button startIcon={<DownloadIcon />} onClick={() => void exportCsv()} disabled={exporting || !data?.total} data-testid="report-export">
          {t("reports.list.export")}
        </Button>
        <Button onClick={onClose}>{t("reports.list.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
