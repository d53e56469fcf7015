import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Table, TableBody, TableCell, TableRow } from "@mui/material";
import { useTranslation } from "react-i18next";

export interface SmsSummary {
  title: string;
  fileName: string;
  costCenter: string;
  template: string;
  segments: string;
  schedule: string;
  window: string;
  options: string;
  tags: string;
  /** Lines of the file minus the header; null while counting. */
  messages: number | null;
}

interface Props {
  summary: SmsSummary | null;
  submitting: boolean;
  onClose(): void;
  onConfirm(): void;
}

/** 'Resumo da Campanha' (spec 3 §2) of an SMS campaign, then the confirm button. */
export function SmsSummaryDialog({ summary, submitting, onClose, onConfirm }: Props) {
  const { t } = useTranslation();
  const none = t("campaigns.sms.summary.none");
  const rows: [string, string][] = summary
    ? [
        [t("campaigns.form.summary.campaign"), summary.title],
        [t("campaigns.form.summary.file"), summary.fileName],
        [t("campaigns.form.costCenter"), summary.costCenter],
        [t("campaigns.sms.summary.template"), summary.template],
        [t("campaigns.sms.summary.segments"), summary.segments],
        [t("campaigns.sms.summary.schedule"), summary.schedule || none],
        [t("campaigns.sms.summary.window"), summary.window || none],
        [t("campaigns.sms.summary.options"), summary.options || none],
        [t("campaigns.sms.summary.tags"), summary.tags || none],
      ]
    : [];
  return (
    <Dialog open={summary !== null} onClose={submitting ? undefined : onClose} fullWidth maxWidth="sm">
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
              <TableCell data-testid="sms-summary-messages">{summary?.messages ?? t("campaigns.form.summary.counting")}</TableCell>
            </TableRow>
          </TableBody>
        </Table>
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
