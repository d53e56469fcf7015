import { useState } from "react";
import { Box, Link, Paper, Tab, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Tabs } from "@mui/material";
import { useTranslation } from "react-i18next";
import { REPORT_DIMENSIONS, type ReportBreakdownRow, type ReportDimension, type ReportFilters, formatDecimal } from "@atende/shared";
import { EmptyTableRow } from "../../../components/empty-state";
import { TableRowsSkeleton } from "../../../components/table-rows-skeleton";
import { useReportBreakdown } from "../api/breakdown";
import { formatDuration } from "../filter";
import type { Drill } from "./summary-cards";

/** The filter field a breakdown row narrows the list to. */
const FILTER_OF: Record<ReportDimension, keyof ReportFilters> = { agent: "userId", queue: "queueId", tag: "tagId", connection: "whatsappId" };
const NONE_LABEL: Record<ReportDimension, string> = { agent: "noneAgent", queue: "noneQueue", tag: "noneQueue", connection: "noneConnection" };

export interface RowDrill extends Drill {
  narrow: Partial<ReportFilters>;
  title: string;
}

/** Per agent, queue, tag and connection: tickets, resolved, median first response and resolution, CSAT. Counts open their tickets. */
export function BreakdownTabs({ filters, onDrill }: { filters: ReportFilters; onDrill(d: RowDrill): void }) {
  const { t, i18n } = useTranslation();
  const [by, setBy] = useState<ReportDimension>("agent");
  const { data, isPending } = useReportBreakdown(filters, by);
  const rows = data?.by === by ? data.rows : undefined;
  const name = (r: ReportBreakdownRow) => r.name ?? t(`reports.breakdown.${NONE_LABEL[by]}`);
  const drill = (r: ReportBreakdownRow, d: Drill) => onDrill({ ...d, narrow: { [FILTER_OF[by]]: r.id ?? "none" }, title: name(r) });
  const count = (r: ReportBreakdownRow, n: number, d: Drill, testId: string) =>
    n === 0 ? (
      0
    ) : (
      <Link component="button" type="button" onClick={() => drill(r, d)} data-testid={testId} sx={{ verticalAlign: "baseline" }}>
        {n}
      </Link>
    );
  return (
    <Paper variant="outlined" sx={{ minWidth: 0 }}>
      <Tabs value={by} onChange={(_, v: ReportDimension) => setBy(v)} variant="scrollable" allowScrollButtonsMobile sx={{ borderBottom: 1, borderColor: "divider" }}>
        {REPORT_DIMENSIONS.map((d) => (
          <Tab key={d} value={d} label={t(`reports.breakdown.${d}`)} data-testid={`breakdown-tab-${d}`} />
        ))}
      </Tabs>
      <TableContainer>
        <Table size="small" data-testid="breakdown-table">
          <TableHead>
            <TableRow>
              <TableCell>{t("reports.breakdown.name")}</TableCell>
              <TableCell align="right">{t("reports.breakdown.created")}</TableCell>
              <TableCell align="right">{t("reports.breakdown.resolved")}</TableCell>
              <TableCell align="right">{t("reports.breakdown.firstResponse")}</TableCell>
              <TableCell align="right">{t("reports.breakdown.resolution")}</TableCell>
              <TableCell align="right">{t("reports.breakdown.csat")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {isPending || !rows ? (
              <TableRowsSkeleton rows={4} columns={6} />
            ) : rows.length === 0 ? (
              <EmptyTableRow colSpan={6}>{t("reports.breakdown.empty")}</EmptyTableRow>
            ) : (
              rows.map((r) => (
                <TableRow key={r.id ?? "none"} hover data-testid="breakdown-row">
                  <TableCell sx={{ maxWidth: 220, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>{name(r)}</TableCell>
                  <TableCell align="right">{count(r, r.created, { metric: "created" }, "breakdown-created")}</TableCell>
                  <TableCell align="right">{count(r, r.resolved, { metric: "resolved" }, "breakdown-resolved")}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>{formatDuration(r.firstResponseMedian)}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>{formatDuration(r.resolutionMedian)}</TableCell>
                  <TableCell align="right">
                    {r.csatAverage === null ? "—" : (
                      <Box component="span" sx={{ whiteSpace: "nowrap" }}>
                        {formatDecimal(r.csatAverage, i18n.language)} ({count(r, r.csatCount, { metric: "csat" }, "breakdown-csat")})
                      </Box>
                    )}
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}
