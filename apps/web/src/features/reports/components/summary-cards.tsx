import type { ReactNode } from "react";
import { formatDecimal, formatPercent } from "@atende/shared";
import { Box, ButtonBase, LinearProgress, Paper, Skeleton, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { ReportMetric, ReportSummary } from "@atende/shared";
import { formatDuration } from "../filter";

export interface Drill {
  metric: ReportMetric;
  rating?: number;
}

function Card({ title, testId, onClick, children }: { title: string; testId: string; onClick(): void; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ minWidth: 0 }}>
      <ButtonBase onClick={onClick} data-testid={testId} sx={{ p: 2, width: "100%", height: "100%", display: "block", textAlign: "left", borderRadius: 1 }}>
        <Typography variant="body2" color="text.secondary">
          {title}
        </Typography>
        {children}
      </ButtonBase>
    </Paper>
  );
}

const Big = ({ children }: { children: ReactNode }) => (
  <Typography variant="h5" component="p" data-testid="figure" sx={{ fontWeight: 600, whiteSpace: "nowrap" }}>
    {children}
  </Typography>
);

/** The period's figures; each opens the tickets behind it. */
export function SummaryCards({ summary, onDrill }: { summary: ReportSummary | undefined; onDrill(d: Drill): void }) {
  const { t, i18n } = useTranslation();
  const s = summary;
  const wait = <Skeleton width={64} />;
  const timing = (x: ReportSummary["firstResponse"] | undefined) =>
    x ? (
      <>
        <Big>{formatDuration(x.median)}</Big>
        <Typography variant="caption" color="text.secondary">
          {t("reports.cards.median")} · {t("reports.cards.p90", { value: formatDuration(x.p90) })}
        </Typography>
      </>
    ) : (
      wait
    );
  const max = Math.max(1, ...(s?.csat.distribution ?? []));
  return (
    <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "repeat(2, minmax(0, 1fr))", md: "repeat(3, minmax(0, 1fr))", lg: "repeat(5, minmax(0, 1fr)) minmax(0, 1.4fr)" } }}>
      <Card title={t("reports.cards.created")} testId="card-created" onClick={() => onDrill({ metric: "created" })}>
        {s ? <Big>{s.created}</Big> : wait}
      </Card>
      <Card title={t("reports.cards.resolved")} testId="card-resolved" onClick={() => onDrill({ metric: "resolved" })}>
        {s ? <Big>{s.resolved}</Big> : wait}
      </Card>
      <Card title={t("reports.cards.firstResponse")} testId="card-firstResponse" onClick={() => onDrill({ metric: "firstResponse" })}>
        {timing(s?.firstResponse)}
      </Card>
      <Card title={t("reports.cards.resolution")} testId="card-resolution" onClick={() => onDrill({ metric: "resolved" })}>
        {timing(s?.resolution)}
      </Card>
      <Card title={t("reports.cards.csat")} testId="card-csat" onClick={() => onDrill({ metric: "csat" })}>
        {s ? (
          <>
            <Big>{s.csat.average === null ? "—" : formatDecimal(s.csat.average, i18n.language)}</Big>
            <Typography variant="caption" color="text.secondary">
              {s.csat.satisfiedPercent === null ? t("reports.cards.answers", { count: 0 }) : t("reports.cards.satisfied", { value: formatPercent(s.csat.satisfiedPercent, i18n.language, 1) })}
            </Typography>
          </>
        ) : (
          wait
        )}
      </Card>
      <Paper variant="outlined" sx={{ p: 1.5, minWidth: 0, gridColumn: { xs: "span 2", md: "span 1" } }} data-testid="csat-distribution">
        <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
          {t("reports.cards.distribution")}
        </Typography>
        {[5, 4, 3, 2, 1].map((n) => {
          const count = s?.csat.distribution[n - 1] ?? 0;
          return (
            <ButtonBase key={n} onClick={() => onDrill({ metric: "csat", rating: n })} aria-label={t("reports.cards.stars", { n })} sx={{ display: "flex", width: "100%", gap: 1, alignItems: "center", py: 0.25 }}>
              <Typography variant="caption" sx={{ width: 16 }}>
                {n}★
              </Typography>
              <LinearProgress variant="determinate" value={(count / max) * 100} color={n >= 4 ? "success" : n === 3 ? "warning" : "error"} sx={{ flexGrow: 1, height: 8, borderRadius: 4 }} />
              <Typography variant="caption" sx={{ width: 28, textAlign: "right" }}>
                {count}
              </Typography>
            </ButtonBase>
          );
        })}
      </Paper>
    </Box>
  );
}
