import { useState } from "react";
import { Box, Popover, Slider } from "@mui/material";
import VolumeOff from "@mui/icons-material/VolumeOff";
import VolumeUp from "@mui/icons-material/VolumeUp";
import { useTranslation } from "react-i18next";
import { LIMITS } from "@atende/shared";
import { getVolume, setVolume } from "../../lib/volume";

/** The volume slider itself, from 0 to 1 in steps of 0.1, stored locally (spec 1-core §9). */
export default function VolumeSlider({ onChange }: { onChange?(value: number): void }) {
  const { t } = useTranslation();
  const [volume, setState] = useState(getVolume);
  const change = (value: number) => {
    setVolume(value);
    setState(getVolume());
    onChange?.(getVolume());
  };
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, px: 2, py: 1.5, width: 220 }}>
      <VolumeOff fontSize="small" color="action" />
      <Slider aria-label={t("shell.volume")} value={volume} min={0} max={1} step={LIMITS.volumeStep} valueLabelDisplay="auto" onChange={(_, v) => change(v as number)} />
      <VolumeUp fontSize="small" color="action" />
    </Box>
  );
}


/** The slider under the app bar's volume button. */
export function VolumePopover({ anchor, onClose, onChange }: { anchor: HTMLElement; onClose(): void; onChange(value: number): void }) {
  return (
    <Popover open anchorEl={anchor} onClose={onClose} anchorOrigin={{ vertical: "bottom", horizontal: "center" }} transformOrigin={{ vertical: "top", horizontal: "center" }}>
      <VolumeSlider onChange={onChange} />
    </Popover>
  );
}
