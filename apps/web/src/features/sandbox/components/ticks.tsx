import AccessTimeIcon from "@mui/icons-material/AccessTime";
import DoneIcon from "@mui/icons-material/Done";
import DoneAllIcon from "@mui/icons-material/DoneAll";
import { ACK_READ_MIN } from "@atende/shared";
import { useTranslation } from "react-i18next";

/** Ticks of a phone message: 1 pending, 2 sent, 3 delivered, 4-5 read. */
export function Ticks({ ack }: { ack: number }) {
  const { t } = useTranslation();
  const sx = { fontSize: 15, verticalAlign: "middle" };
  if (ack >= ACK_READ_MIN) return <DoneAllIcon sx={{ ...sx, color: "#34b7f1" }} titleAccess={t("sandbox.ack.read")} data-ack="read" />;
  if (ack === 3) return <DoneAllIcon sx={{ ...sx, color: "text.secondary" }} titleAccess={t("sandbox.ack.delivered")} data-ack="delivered" />;
  if (ack === 2) return <DoneIcon sx={{ ...sx, color: "text.secondary" }} titleAccess={t("sandbox.ack.sent")} data-ack="sent" />;
  return <AccessTimeIcon sx={{ ...sx, color: "text.secondary" }} titleAccess={t("sandbox.ack.pending")} data-ack="pending" />;
}
