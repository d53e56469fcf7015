import { useMediaQuery } from "@mui/material";
import { LIMITS } from "@atende/shared";

/** True under 600 px (spec 1-core §9). */
export function useNarrow(): boolean {
  return useMediaQuery(`(max-width:${LIMITS.narrowScreenPx - 0.02}px)`);
}
