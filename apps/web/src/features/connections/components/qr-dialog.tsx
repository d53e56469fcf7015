import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from "@mui/material";
import PhoneIphoneIcon from "@mui/icons-material/PhoneIphone";
import type { Whatsapp } from "@atende/shared";
import { QRCodeSVG } from "qrcode.react";
import { useTranslation } from "react-i18next";

/** The QR code of a starting session; it closes when a session update carries an empty code. */
export function QrDialog({ connection, onClose }: { connection: Whatsapp | null; onClose(): void }) {
  const { t } = useTranslation();
  const sandbox = connection?.provider === "sandbox";
  return (
    <Dialog open={Boolean(connection)} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t("connections.qr.title", { name: connection?.name ?? "" })}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t(sandbox ? "connections.qr.sandboxHelp" : "connections.qr.help")}
        </Typography>
        <Box sx={{ display: "grid", placeItems: "center", minHeight: 260, bgcolor: "#fff", borderRadius: 2, p: 2 }} data-testid="qr-code">
          {connection?.qrcode ? <QRCodeSVG value={connection.qrcode} size={240} /> : <CircularProgress />}
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
