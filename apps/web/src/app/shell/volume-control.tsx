import { lazy, Suspense, useState } from "react";
import { IconButton, Popover, Tooltip } from "@mui/material";
import VolumeOff from "@mui/icons-material/VolumeOff";
import VolumeUp from "@mui/icons-material/VolumeUp";
import { useTranslation } from "react-i18next";
import { getVolume } from "../../lib/volume";

// the slider loads when first shown (a popover here, the account menu on narrow screens)
export const VolumeSlider = lazy(() => import("./volume-slider"));

/** Notification volume: an icon button opening the slider. */
export function VolumeControl() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [volume, setState] = useState(getVolume);
  return (
    <>
      <Tooltip title={t("shell.volume")}>
        <IconButton color="inherit" aria-label={t("shell.volume")} onClick={(e) => setAnchor(e.currentTarget)}>
          {volume === 0 ? <VolumeOff /> : <VolumeUp />}
        </IconButton>
      </Tooltip>
      <Popover open={!!anchor} anchorEl={anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: "bottom", horizontal: "center" }} transformOrigin={{ vertical: "top", horizontal: "center" }}>
        <Suspense fallback={null}>
          <VolumeSlider onChange={setState} />
        </Suspense>
      </Popover>
    </>
  );
}
