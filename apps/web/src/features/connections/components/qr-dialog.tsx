import { useState, type FormEvent } from "react";
import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from "@mui/material";
import DialpadIcon from "@mui/icons-material/Dialpad";
import PhoneIphoneIcon from "@mui/icons-material/PhoneIphone";
import type { Whatsapp } from "@atende/shared";
import { QRCodeSVG } from "qrcode.react";
import { useTranslation } from "react-i18next";
import { toastError } from "../../../lib/toast-error";
import { requestPairingCode } from "../api/connections";

/** "ABCD1234" shown as "ABCD-1234", as WhatsApp shows it on the phone. */
const formatPairingCode = (code: string) => (code.length === 8 ? `${code.slice(0, 4)}-${code.slice(4)}` : code);

/**
 * The live QR code of a starting session (spec 1-core §4). The page closes it when a session update
 * carries an empty code; while the session is opening or pairing it shows that state instead. A
 * Baileys connection may also pair by phone number: the dialog asks for the number and then shows the
 * 8-character pairing code to type on that phone.
 */
export function QrDialog({ connection, onClose }: { connection: Whatsapp | null; onClose(): void }) {
  const { t } = useTranslation();
  const sandbox = connection?.provider === "sandbox";
  const byNumber = connection?.provider === "baileys" && connection.status !== "CONNECTED";
  const [askNumber, setAskNumber] = useState(false);
  const [phone, setPhone] = useState("");
  const [busy, setBusy] = useState(false);
  const code = connection?.status === "qrcode" ? connection.qrcode : "";
  const pairingCode = connection?.status === "PAIRING" ? (connection.pairingCode ?? "") : "";
  const waiting = connection?.status === "PAIRING" ? "connections.qr.pairing" : "connections.qr.waiting";

  function close() {
    setAskNumber(false);
    setPhone("");
    onClose();
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!connection) return;
    setBusy(true);
    try {
      await requestPairingCode(connection.id, phone);
      setAskNumber(false);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={Boolean(connection)} onClose={close} maxWidth="xs" fullWidth aria-labelledby="qr-dialog-title">
      <DialogTitle id="qr-dialog-title">{t("connections.qr.title", { name: connection?.name ?? "" })}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="qr-help">
          {t(sandbox ? "connections.qr.sandboxHelp" : askNumber ? "connections.qr.numberHelp" : pairingCode ? "connections.qr.pairingHelp" : "connections.qr.help")}
        </Typography>
        {askNumber ? (
          <Box component="form" onSubmit={(e) => void submit(e)} sx={{ display: "grid", gap: 2, minHeight: 272, alignContent: "center" }} data-testid="pairing-form">
            <TextField
              label={t("connections.qr.numberLabel")}
              placeholder="5511999998888"
              value={phone}
              onChange={(e) => setPhone(e.target.value)}
              autoFocus
              required
              inputProps={{ inputMode: "tel", "data-testid": "pairing-number" }}
            />
            <Button type="submit" variant="contained" disabled={busy || phone.replace(/\D/g, "").length < 8} startIcon={busy ? <CircularProgress size={14} /> : undefined}>
              {t("connections.qr.requestCode")}
            </Button>
          </Box>
        ) : (
          /* The code stays black on white in the dark theme too: phones read it best that way. */
          <Box
            sx={{ display: "grid", placeItems: "center", minHeight: 272, bgcolor: "#fff", color: "#333", borderRadius: 2, p: 2, border: 1, borderColor: "divider" }}
            data-testid="qr-code"
            data-status={connection?.status}
          >
            {code ? (
              <QRCodeSVG value={code} size={240} marginSize={1} data-testid="qr-image" aria-label={t("connections.qr.imageLabel")} role="img" />
            ) : pairingCode ? (
              <Typography
                component="div"
                sx={{ fontFamily: "monospace", fontSize: 36, fontWeight: 700, letterSpacing: 4 }}
                aria-label={t("connections.qr.pairingCodeLabel")}
                data-testid="pairing-code"
              >
                {formatPairingCode(pairingCode)}
              </Typography>
            ) : (
              <Box sx={{ display: "grid", justifyItems: "center", gap: 2 }} data-testid="qr-waiting">
                <CircularProgress />
                <Typography variant="body2">{t(waiting)}</Typography>
              </Box>
            )}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        {sandbox && connection && (
          <Button startIcon={<PhoneIphoneIcon />} href={`/sandbox/${connection.id}`} target="_blank" rel="noopener">
            {t("connections.openPhone")}
          </Button>
        )}
        {byNumber && !askNumber && (
          <Button startIcon={<DialpadIcon />} onClick={() => setAskNumber(true)} data-testid="pairing-by-number">
            {t("connections.qr.byNumber")}
          </Button>
        )}
        {askNumber && <Button onClick={() => setAskNumber(false)}>{t("connections.qr.backToQr")}</Button>}
        <Button onClick={close}>{t("common.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
