import { CircularProgress, IconButton, Tooltip } from "@mui/material";
import PauseIcon from "@mui/icons-material/Pause";
import PlayArrowIcon from "@mui/icons-material/PlayArrow";
import SendIcon from "@mui/icons-material/Send";
import ScheduleIcon from "@mui/icons-material/Schedule";
import HourglassEmptyIcon from "@mui/icons-material/HourglassEmpty";
import CancelOutlinedIcon from "@mui/icons-material/CancelOutlined";
import { useTranslation } from "react-i18next";
import { SMS_CANCELLABLE, smsCampaignRowAction, type SmsCampaign } from "@atende/shared";
import { formatInZone } from "../../../lib/time-zone";

export type SmsAction = "trigger" | "pause" | "resume" | "cancel";

interface Props {
  c: SmsCampaign;
  timeZone: string;
  busy: boolean;
  onAction(c: SmsCampaign, action: SmsAction): void;
}

/** Spec 3 §4 'Row action by status', SMS (the rule is smsCampaignRowAction in packages/shared), plus cancel. */
export function SmsRowAction({ c, timeZone, busy, onAction }: Props) {
  const { t } = useTranslation();
  if (busy) return <CircularProgress size={20} aria-label="…" />;
  const kind = smsCampaignRowAction(c.status);
  const button = (label: string, icon: React.ReactNode, action: SmsAction | null, color?: "warning" | "primary" | "success") => (
    <Tooltip title={label}>
      <span>
        <IconButton size="small" color={color} aria-label={label} disabled={action === null} onClick={action ? () => onAction(c, action) : undefined}>
          {icon}
        </IconButton>
      </span>
    </Tooltip>
  );
  const main =
    kind === "pause"
      ? button(t("campaigns.sms.actions.pause"), <PauseIcon fontSize="small" />, "pause", "warning")
      : kind === "resume"
        ? button(t("campaigns.sms.actions.resume"), <PlayArrowIcon fontSize="small" />, "resume", "success")
        : kind === "scheduled"
          ? button(t("campaigns.sms.actions.scheduled", { when: c.schedule_date ? formatInZone(c.schedule_date, timeZone) : "" }), <ScheduleIcon fontSize="small" />, null)
          : kind === "disabled"
            ? button(t("campaigns.sms.actions.analyzing"), <HourglassEmptyIcon fontSize="small" />, null)
            : // "otherwise trigger" (spec §4); disabled where nothing is left to send (finished, cancelled, error)
              button(t("campaigns.sms.actions.trigger"), <SendIcon fontSize="small" />, kind === "trigger" ? "trigger" : null, "primary");
  return (
    <>
      {main}
      {(SMS_CANCELLABLE as readonly string[]).includes(c.status) && button(t("campaigns.sms.actions.cancel"), <CancelOutlinedIcon fontSize="small" />, "cancel")}
    </>
  );
}
