import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { SentEmail } from "@atende/shared";
import { formatInZone, useCompanyTimeZone } from "../../../lib/time-zone";
import { SentEmailStatusChip } from "./sent-email-status-chip";

/** The full sent e-mail, opened from the list. */
export function SentEmailDialog({ email, onClose }: { email: SentEmail | null; onClose(): void }) {
  const { t } = useTranslation();
  const timeZone = useCompanyTimeZone();
  return (
    <Dialog open={email !== null} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="sent-email-title">
      {email && (
        <>
          <DialogTitle id="sent-email-title" sx={{ wordBreak: "break-word" }}>
            {email.subject}
          </DialogTitle>
          <DialogContent dividers sx={{ display: "grid", gap: 1 }}>
            <Typography variant="body2" color="text.secondary">
              {t("emailTool.list.to")}: {email.sender} · {formatInZone(email.created_at, timeZone)}
              {email.userName ? ` · ${email.userName}` : ""}
            </Typography>
            <div>
              <SentEmailStatusChip email={email} />
            </div>
            <Typography component="div" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }} data-testid="sent-email-message">
              {email.message}
            </Typography>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t("common.close")}</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
