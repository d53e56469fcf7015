import { CircularProgress, Tooltip } from "@mui/material";
import CheckCircleIcon from "@mui/icons-material/CheckCircle";
import CropFreeIcon from "@mui/icons-material/CropFree";
import KeyOffIcon from "@mui/icons-material/KeyOff";
import SignalCellularConnectedNoInternet0BarIcon from "@mui/icons-material/SignalCellularConnectedNoInternet0Bar";
import SignalCellularConnectedNoInternet2BarIcon from "@mui/icons-material/SignalCellularConnectedNoInternet2Bar";
import type { SessionStatus } from "@atende/shared";
import { useTranslation } from "react-i18next";

/** The session status icon of a connection row (spec 1-core §4). */
export function StatusIcon({ status }: { status: SessionStatus }) {
  const { t } = useTranslation();
  const title = t(`connections.status.${status}`);
  const icon = (() => {
    switch (status) {
      case "CONNECTED":
        return <CheckCircleIcon sx={{ color: "success.main" }} />;
      case "DISCONNECTED":
        return <SignalCellularConnectedNoInternet0BarIcon color="error" />;
      case "qrcode":
        return <CropFreeIcon color="primary" />;
      case "REAUTH_REQUIRED":
        return <KeyOffIcon color="error" />;
      case "OPENING":
        return <CircularProgress size={20} />;
      case "TIMEOUT":
      case "PAIRING":
        return <SignalCellularConnectedNoInternet2BarIcon color="warning" />;
    }
  })();
  return (
    <Tooltip title={title}>
      <span style={{ display: "inline-flex" }} data-testid="connection-status" data-status={status} aria-label={title}>
        {icon}
      </span>
    </Tooltip>
  );
}
