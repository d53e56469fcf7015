import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Table, TableBody, TableCell, TableRow } from "@mui/material";
import { useTranslation } from "react-i18next";

export interface EmailSummary {
  title: string;
  fileName: string;
  costCenter: string;
  sender: string;
  template: string;
  /** Lines of the file minus the header; null while counting. */
  messages: number | null;
}

/** 'Resumo da Campanha' (spec §2) of the E-mail section. */
export function EmailSummaryDialog({ summary, submitting, onClose, onConfirm }: { summary: EmailSummary | null; submitting: boolean; onClose(): void; onConfirm(): void }) {
  const { t } = useTranslation();
  const rows: [string, string][] = summary
    ? [
        [t("campaigns.form.summary.campaign"), summary.title],
        [t("campaigns.form.summary.file"), summary.fileName],
        [t("campaigns.form.costCenter"), summary.costCenter],
        [t("emailCampaigns.form.sender"), summary.sender],
        [t("emailCampaigns.form.template"), summary.template],
        [t("campaigns.form.summary.messages"), summary.messages === null ? t("campaigns.form.summary.counting") : String(summary.messages)],
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
