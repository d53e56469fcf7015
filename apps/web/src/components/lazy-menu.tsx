import { lazy, Suspense } from "react";
import type { MenuProps } from "@mui/material/Menu";

// MUI's Menu (Popover, Modal, MenuList) loads when a menu first opens, not with every page
const Menu = lazy(() => import("@mui/material/Menu"));

/** MUI's Menu, open while `anchorEl` is set, loaded on first use (closing unmounts it at once). */
export function LazyMenu({ anchorEl, ...props }: Omit<MenuProps, "open" | "anchorEl"> & { anchorEl: HTMLElement | null }) {
  if (!anchorEl) return null;
  return (
    <Suspense fallback={null}>
      <Menu open anchorEl={anchorEl} {...props} />
    </Suspense>
  );
}
