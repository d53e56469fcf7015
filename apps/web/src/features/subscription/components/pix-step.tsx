import { useEffect, useState } from "react";
import { formatMoney } from "@atende/shared";
import { Alert, Box, Button, Stack, TextField, Typography } from "@mui/material";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import { QRCodeSVG } from "qrcode.react";
import { useTranslation } from "react-i18next";
import type { PixCharge } from "@atende/shared";
import { logFailure } from "../../../lib/log-failure";

/** The Pix step: the BR Code as a QR code and as copy-and-paste text (copy confirmation for 1 s). */
export function PixStep({ pix }: { pix: PixCharge }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = () =>
    navigator.clipboard.writeText(pix.qrcode.qrcode).then(
      () => setCopied(true),
      (err: unknown) => logFailure("could not copy the Pix code", err, { txid: pix.txid }),
    );
  return (
    <Stack spacing={2} alignItems="center" data-testid="pix-step">
      <Typography variant="h6">{t("subscription.pix.amount", { value: formatMoney(Number(pix.valor.original)) })}</Typography>
      <Box sx={{ bgcolor: "#fff", p: 1.5, borderRadius: 1, lineHeight: 0 }}>
        <QRCodeSVG value={pix.qrcode.qrcode} size={220} level="M" aria-label={t("subscription.pix.qrLabel")} />
      </Box>
      <TextField value={pix.qrcode.qrcode} label={t("subscription.pix.copyPaste")} fullWidth multiline maxRows={4} slotProps={{ htmlInput: { readOnly: true, "data-testid": "pix-code" } }} />
      <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
        {copied ? t("subscription.pix.copied") : t("subscription.pix.copy")}
      </Button>
      <Alert severity="info" sx={{ width: "100%" }}>
        {t("subscription.pix.waiting")}
      </Alert>
      {pix.sandboxPayPath && (
        <Button href={pix.sandboxPayPath} target="_blank" rel="noopener" data-testid="pix-sandbox-link">
          {t("subscription.pix.sandboxPay")}
        </Button>
      )}
    </Stack>
  );
}
