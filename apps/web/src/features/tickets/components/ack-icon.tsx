import AccessTimeIcon from "@mui/icons-material/AccessTime";
import DoneIcon from "@mui/icons-material/Done";
import DoneAllIcon from "@mui/icons-material/DoneAll";
import ErrorOutlineIcon from "@mui/icons-material/ErrorOutline";
import Tooltip from "@mui/material/Tooltip";
import { ACK_READ_MIN } from "@atende/shared";
import { useTranslation } from "react-i18next";

/**
 * Acknowledgement ticks: 1 pending, 2 sent, 3 delivered, 4 and 5 read (blue). A message whose send
 * failed (`error` set) shows a red error icon with the reason as tooltip instead of the pending clock;
 * one waiting for another attempt (`retrying`) keeps the pending clock, with a tooltip saying so.
 */
export function AckIcon({ ack, size = 16, error, retrying }: { ack: number | null | undefined; size?: number; error?: string | null; retrying?: boolean }) {
  const { t } = useTranslation();
  const a = ack ?? 0;
  const sx = { fontSize: size, verticalAlign: "middle", flexShrink: 0 };
  if (a >= ACK_READ_MIN) return <DoneAllIcon sx={{ ...sx, color: "#34b7f1" }} titleAccess={t("tickets.ack.read")} data-ack="read" />;
  if (a === 3) return <DoneAllIcon sx={{ ...sx, color: "text.secondary" }} titleAccess={t("tickets.ack.delivered")} data-ack="delivered" />;
  if (a === 2) return <DoneIcon sx={{ ...sx, color: "text.secondary" }} titleAccess={t("tickets.ack.sent")} data-ack="sent" />;
  if (error) {
    return (
      <Tooltip title={t("tickets.ack.failed", { error })} arrow>
        <ErrorOutlineIcon sx={{ ...sx, color: "error.main" }} aria-label={t("tickets.ack.failed", { error })} data-ack="failed" />
      </Tooltip>
    );
  }
  if (retrying) {
    return (
      <Tooltip title={t("tickets.ack.retrying")} arrow>
        <AccessTimeIcon sx={{ ...sx, color: "text.secondary" }} aria-label={t("tickets.ack.retrying")} data-ack="retrying" />
      </Tooltip>
    );
  }
  return <AccessTimeIcon sx={{ ...sx, color: "text.secondary" }} titleAccess={t("tickets.ack.pending")} data-ack="pending" />;
}
