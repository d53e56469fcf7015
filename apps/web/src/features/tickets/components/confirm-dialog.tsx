import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from "@mui/material";
import { useTranslation } from "react-i18next";

export function ConfirmDialog({ open, title, text, onConfirm, onClose, danger }: { open: boolean; title: string; text?: string; danger?: boolean; onConfirm(): void; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{title}</DialogTitle>
      {text && (
        <DialogContent>
          <DialogContentText>{text}</DialogContentText>
        </DialogContent>
      )}
      <DialogActions>
        <Button onClick={onClose}>{t("common.cancel")}</Button>
        <Button
          variant="contained"
          color={danger ? "error" : "primary"}
          onClick={() => {
            onClose();
            onConfirm();
          }}
          data-testid="confirm-button"
        >
          {t("common.confirm")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
