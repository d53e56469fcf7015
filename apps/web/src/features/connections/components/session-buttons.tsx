import { useState } from "react";
import { Box, Button, CircularProgress } from "@mui/material";
import type { Whatsapp } from "@atende/shared";
import { useTranslation } from "react-i18next";
import { ConfirmationDialog } from "../../../components/confirmation-dialog";
import { toastError } from "../../../lib/toast-error";
import { sessionAction, type SessionAction } from "../api/connections";

/**
 * Session buttons per status (spec 1-core §4): qrcode shows the QR code; DISCONNECTED offers try again
 * and new QR; CONNECTED, PAIRING or TIMEOUT offer disconnect; OPENING shows a disabled 'connecting'.
 */
export function SessionButtons({ connection, onShowQr }: { connection: Whatsapp; onShowQr(c: Whatsapp): void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<SessionAction | null>(null);
  const [confirmDisconnect, setConfirmDisconnect] = useState(false);
  async function run(action: SessionAction) {
    setBusy(action);
    try {
      await sessionAction(connection.id, action);
      if (action !== "disconnect") onShowQr(connection);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(null);
    }
  }
  const btn = (action: SessionAction, label: string, variant: "contained" | "outlined" = "outlined", color: "primary" | "error" = "primary") => (
    <Button
      size="small"
      variant={variant}
      color={color}
      disabled={busy !== null}
      // Disconnecting stops the session for everyone: it asks first, as deleting does.
      onClick={() => (action === "disconnect" ? setConfirmDisconnect(true) : void run(action))}
      data-testid={`session-${action}`}
      startIcon={busy === action ? <CircularProgress size={14} /> : undefined}
    >
      {label}
    </Button>
  );
  return (
    <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", justifyContent: "center", "& .MuiButton-root": { whiteSpace: "nowrap" } }}>
      {connection.status === "qrcode" && (
        <Button size="small" variant="contained" onClick={() => onShowQr(connection)} data-testid="session-qrcode">
          {t("connections.buttons.qrcode")}
        </Button>
      )}
      {connection.status === "DISCONNECTED" && (
        <>
          {btn("start", t("connections.buttons.tryAgain"))}
          {btn("newQr", t("connections.buttons.newQr"), "contained")}
        </>
      )}
      {connection.status === "PAIRING" && connection.pairingCode && (
        <Button size="small" variant="contained" onClick={() => onShowQr(connection)} data-testid="session-pairing">
          {t("connections.buttons.pairingCode")}
        </Button>
      )}
      {(connection.status === "CONNECTED" || connection.status === "PAIRING" || connection.status === "TIMEOUT") &&
        btn("disconnect", t("connections.buttons.disconnect"), "outlined", "error")}
      {connection.status === "OPENING" && (
        <Button size="small" variant="outlined" disabled startIcon={<CircularProgress size={14} />}>
          {t("connections.buttons.connecting")}
        </Button>
      )}
      <ConfirmationDialog
        open={confirmDisconnect}
        title={t("connections.disconnectTitle", { name: connection.name })}
        confirmLabel={t("connections.buttons.disconnect")}
        onClose={() => setConfirmDisconnect(false)}
        onConfirm={() => void run("disconnect")}
      >
        {t("connections.disconnectText")}
      </ConfirmationDialog>
    </Box>
  );
}
