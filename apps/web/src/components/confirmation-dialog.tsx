import type { ReactNode } from "react";
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from "@mui/material";
import { useTranslation } from "react-i18next";

interface Props {
  open: boolean;
  title: string;
  /** Defaults to 'Deseja realmente excluir esse registro?'. */
  children?: ReactNode;
  confirmLabel?: string;
  onConfirm(): void;
  onClose(): void;
}

/** Asks before a destructive action; the confirm button closes the dialog and runs onConfirm. */
export function ConfirmationDialog({ open, title, children, confirmLabel, onConfirm, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="confirmation-dialog-title">
      <DialogTitle id="confirmation-dialog-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText component="div">{children ?? t("common.deleteConfirm")}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common.cancel")}</Button>
        <Button
          color="error"
          variant="contained"
          onClick={() => {
            onClose();
            onConfirm();
          }}
        >
          {confirmLabel ?? t("common.confirm")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
