import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Table, TableBody, TableCell, TableRow } from "@mui/material";
import { useTranslation } from "react-i18next";

export interface CampaignSummary {
  title: string;
  fileName: string;
  costCenter: string;
  business: string;
  templates: string;
  phones: string;
  queue: string;
  /** The chosen bot's name, "" for none. */
  bot: string;
  scheduledAt: string;
  /** Lines of the file minus the header; null while counting. */
  messages: number | null;
  /** The BM's remaining 24-hour output; null = unlimited. */
  output: number | null;
}

interface Props {
  open: boolean;
  summary: CampaignSummary | null;
  submitting: boolean;
  onClose(): void;
  onConfirm(): void;
}

/** 'Resumo da Campanha' (spec §2): the estimated output in red when the message count exceeds it. */
export function SummaryDialog({ open, summary, submitting, onClose, onConfirm }: Props) {
  const { t } = useTranslation();
  const over = summary && summary.messages !== null && summary.output !== null && summary.messages > summary.output;
  const rows: [string, string][] = summary
    ? [
        [t("campaigns.form.summary.campaign"), summary.title],
        [t("campaigns.form.summary.file"), summary.fileName],
        [t("campaigns.form.costCenter"), summary.costCenter],
        [t("campaigns.form.business"), summary.business],
        [t("campaigns.form.templates"), summary.templates],
        [t("campaigns.form.phones"), summary.phones],
        [t("campaigns.form.queue"), summary.queue],
        [t("campaigns.form.bot"), summary.bot || t("campaigns.form.noBot")],
        ...(summary.scheduledAt ? ([[t("campaigns.form.scheduledAt"), summary.scheduledAt]] as [string, string][]) : []),
      ]
    : [];
  return (
    <Dialog open={open} onClose={submitting ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>{t("campaigns.form.summary.title")}</DialogTitle>
      <DialogContent dividers>
        <Table size="small">
          <TableBody>
            {rows.map(([k, v]) => (
              <TableRow key={k}>
                <TableCell sx={{ fontWeight: 600, width: "40%" }}>{k}</TableCell>
                <TableCell sx={{ wordBreak: "break-word" }}>{v}</TableCell>
              </TableRow>
            ))}
            <TableRow>
              <TableCell sx={{ fontWeight: 600 }}>{t("campaigns.form.summary.messages")}</TableCell>
              <TableCell data-testid="summary-messages">{summary?.messages ?? t("campaigns.form.summary.counting")}</TableCell>
            </TableRow>
            <TableRow>
              <TableCell sx={{ fontWeight: 600 }}>{t("campaigns.form.summary.output")}</TableCell>
              <TableCell data-testid="summary-output" data-over={over ? "true" : "false"} sx={{ color: over ? "error.main" : undefined, fontWeight: over ? 700 : undefined }}>
                {summary?.output === null ? t("campaigns.form.summary.unlimited") : summary?.output}
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
        {over && (
          <Alert severity="warning" sx={{ mt: 2 }}>
            {t("campaigns.form.summary.overOutput")}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={submitting}>
          {t("campaigns.form.summary.back")}
        </Button>
        <Box sx={{ position: "relative" }}>
          <Button variant="contained" onClick={onConfirm} disabled={submitting || summary?.messages === null}>
            {t("campaigns.form.summary.confirm")}
          </Button>
          {submitting && <CircularProgress size={20} sx={{ position: "absolute", top: "50%", left: "50%", mt: "-10px", ml: "-10px" }} />}
        </Box>
      </DialogActions>
    </Dialog>
  );
}
