import { Chip, Tooltip } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { SentEmail } from "@atende/shared";

const COLORS = { queued: "default", sending: "info", sent: "success", failed: "error" } as const;

/** The send's state; a failure shows its reason on hover. */
export function SentEmailStatusChip({ email }: { email: SentEmail }) {
  const { t } = useTranslation();
  const chip = <Chip size="small" color={COLORS[email.status]} label={t(`emailTool.status.${email.status}`)} data-testid="sent-email-status" />;
  return email.error ? <Tooltip title={email.error}>{chip}</Tooltip> : chip;
}
