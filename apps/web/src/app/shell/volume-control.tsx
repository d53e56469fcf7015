import { lazy, Suspense, useState } from "react";
import { IconButton, Tooltip } from "@mui/material";
import VolumeOff from "@mui/icons-material/VolumeOff";
import VolumeUp from "@mui/icons-material/VolumeUp";
import { useTranslation } from "react-i18next";
import { getVolume } from "../../lib/volume";

// the slider (and its popover) loads when first shown (a popover here, the account menu on narrow screens)
export const VolumeSlider = lazy(() => import("./volume-slider"));
const VolumePopover = lazy(() => import("./volume-slider").then((m) => ({ default: m.VolumePopover })));

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
      {anchor && (
        <Suspense fallback={null}>
          <VolumePopover anchor={anchor} onClose={() => setAnchor(null)} onChange={setState} />
        </Suspense>
      )}
    </>
  );
}
