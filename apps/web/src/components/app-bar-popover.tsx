import { lazy, Suspense, type ReactNode, type UIEventHandler } from "react";
import { Box, Typography } from "@mui/material";

// MUI's Popover (with its Modal and transitions) loads when a popover first opens, not with every page
const Popover = lazy(() => import("@mui/material/Popover"));

interface Props {
  anchor: HTMLElement | null;
  onClose(): void;
  title: string;
  /** The text shown instead of the list when it is empty. */
  empty?: string | null;
  onScroll?: UIEventHandler<HTMLDivElement>;
  children?: ReactNode;
}

/**
 * The app bar's popovers (notifications, announcements, internal chat): a 360 px panel under its
 * button with a title, and either the list or a line saying it is empty.
 */
export function AppBarPopover({ anchor, onClose, title, empty, onScroll, children }: Props) {
  if (!anchor) return null;
  return (
    <Suspense fallback={null}>
      <Popover
        open
        anchorEl={anchor}
        onClose={onClose}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
        slotProps={{ paper: { sx: { width: 360, maxWidth: "95vw", maxHeight: 480 }, onScroll } }}
      >
        <Typography variant="subtitle1" sx={{ px: 2, py: 1.5, fontWeight: 600, borderBottom: 1, borderColor: "divider" }}>
          {title}
        </Typography>
        {empty ? <Box sx={{ p: 3, textAlign: "center", color: "text.secondary" }}>{empty}</Box> : children}
      </Popover>
    </Suspense>
  );
}
