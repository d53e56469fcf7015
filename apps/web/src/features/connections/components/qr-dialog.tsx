import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from "@mui/material";
import PhoneIphoneIcon from "@mui/icons-material/PhoneIphone";
import type { Whatsapp } from "@atende/shared";
import { QRCodeSVG } from "qrcode.react";
import { useTranslation } from "react-i18next";

/**
 * The live QR code of a starting session (spec 1-core §4). The page closes it when a session update
 * carries an empty code; while the session is opening or pairing it shows that state instead.
 */
export function QrDialog({ connection, onClose }: { connection: Whatsapp | null; onClose(): void }) {
  const { t } = useTranslation();
  const sandbox = connection?.provider === "sandbox";
  const code = connection?.status === "qrcode" ? connection.qrcode : "";
  const waiting = connection?.status === "PAIRING" ? "connections.qr.pairing" : "connections.qr.waiting";
  return (
    <Dialog open={Boolean(connection)} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="qr-dialog-title">
      <DialogTitle id="qr-dialog-title">{t("connections.qr.title", { name: connection?.name ?? "" })}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="qr-help">
          {t(sandbox ? "connections.qr.sandboxHelp" : "connections.qr.help")}
        </Typography>
        {/* The code stays black on white in the dark theme too: phones read it best that way. */}
        <Box
          sx={{ display: "grid", placeItems: "center", minHeight: 272, bgcolor: "#fff", color: "#333", borderRadius: 2, p: 2, border: 1, borderColor: "divider" }}
          data-testid="qr-code"
          data-status={connection?.status}
        >
          {code ? (
            <QRCodeSVG value={code} size={240} marginSize={1} data-testid="qr-image" aria-label={t("connections.qr.imageLabel")} role="img" />
          ) : (
            <Box sx={{ display: "grid", justifyItems: "center", gap: 2 }} data-testid="qr-waiting">
              <CircularProgress />
              <Typography variant="body2">{t(waiting)}</Typography>
            </Box>
          )}
        </Box>
      </DialogContent>
      <DialogActions>
        {sandbox && connection && (
          <Button startIcon={<PhoneIphoneIcon />} href={`/sandbox/${connection.id}`} target="_blank" rel="noopener">
            {t("connections.openPhone")}
          </Button>
        )}
        <Button onClick={onClose}>{t("common.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
