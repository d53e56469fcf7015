import { Button, CircularProgress, DialogActions } from "@mui/material";
import { useTranslation } from "react-i18next";

/** Cancel + Save of a form dialog; Save submits the surrounding form and shows progress while submitting. */
export function DialogFormActions({ onCancel, submitting, disabled }: { onCancel(): void; submitting: boolean; disabled?: boolean }) {
  const { t } = useTranslation();
  return (
    <DialogActions>
      <Button onClick={onCancel} disabled={submitting}>
        {t("common.cancel")}
      </Button>
      <Button type="submit" variant="contained" disabled={submitting || disabled} startIcon={submitting ? <CircularProgress size={16} /> : undefined}>
        {t("common.save")}
      </Button>
    </DialogActions>
  );
}
