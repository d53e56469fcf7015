import { Box, Drawer, Toolbar, Typography } from "@mui/material";
import { APP_VERSION, type SessionUser } from "@atende/shared";
import { DrawerMenu } from "./drawer-menu";

export const DRAWER_WIDTH = 248;
export const DRAWER_MINI_WIDTH = 64;

interface Props {
  user: SessionUser;
  open: boolean;
  /** Wide screens keep a permanent drawer that collapses to icons; narrow ones get a temporary one. */
  wide: boolean;
  connectionsAlert: boolean;
  onClose(): void;
  onNavigate(): void;
}

function DrawerBody({ user, expanded, connectionsAlert, onNavigate }: { user: SessionUser; expanded: boolean; connectionsAlert: boolean; onNavigate(): void }) {
  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%" }}>
      <Toolbar />
      <Box sx={{ flexGrow: 1, overflowY: "auto", overflowX: "hidden" }}>
        <DrawerMenu user={user} expanded={expanded} connectionsAlert={connectionsAlert} onNavigate={onNavigate} />
      </Box>
      <Typography variant="caption" color="text.secondary" align="center" sx={{ py: 1, borderTop: 1, borderColor: "divider" }} data-testid="app-version">
        v{APP_VERSION}
      </Typography>
    </Box>
  );
}

/** The collapsible side drawer of the shell (spec 1-core §2 Shell). */
export function AppDrawer({ user, open, wide, connectionsAlert, onClose, onNavigate }: Props) {
  if (!wide) {
    return (
      // Keyed per variant so crossing the breakpoint mounts a fresh drawer instead of turning the
      // permanent one into a modal mid-state; not kept mounted, so a closed one leaves nothing on the page.
      <Drawer key="temporary" variant="temporary" open={open} onClose={onClose} data-open={open} sx={{ "& .MuiDrawer-paper": { width: DRAWER_WIDTH } }} data-testid="app-drawer">
        <DrawerBody user={user} expanded connectionsAlert={connectionsAlert} onNavigate={onNavigate} />
      </Drawer>
    );
  }
  const width = open ? DRAWER_WIDTH : DRAWER_MINI_WIDTH;
  return (
    <Drawer
      key="permanent"
      variant="permanent"
      open={open}
      data-testid="app-drawer"
      data-open={open}
      sx={(theme) => ({
        width,
        flexShrink: 0,
        whiteSpace: "nowrap",
        transition: theme.transitions.create("width", { duration: theme.transitions.duration.shorter }),
        "& .MuiDrawer-paper": {
          width,
          overflowX: "hidden",
          boxSizing: "border-box",
          transition: theme.transitions.create("width", { duration: theme.transitions.duration.shorter }),
        },
      })}
    >
      <DrawerBody user={user} expanded={open} connectionsAlert={connectionsAlert} onNavigate={onNavigate} />
    </Drawer>
  );
}
