import { Suspense, useEffect, useState } from "react";
import { Outlet, useLocation } from "react-router-dom";
import { Box, LinearProgress, Toolbar, Typography, useMediaQuery, useTheme } from "@mui/material";
import { useTranslation } from "react-i18next";
import { LIMITS } from "@atende/shared";
import { useCurrentUser } from "../lib/session";
import { AppDialogsProvider } from "./app-dialogs-provider";
import { AppDrawer } from "./shell/app-drawer";
import { AppTopBar } from "./shell/app-top-bar";
import { useConnectionsAlert } from "./shell/use-connections-alert";
import { useSessionRealtime } from "./shell/use-session-realtime";

const WIDE_QUERY = `(min-width:${LIMITS.narrowScreenPx + 1}px)`;

/**
 * The application shell around private pages (spec 1-core §2 Shell): app bar, a drawer open by default
 * above 600 px that closes itself on navigation below it, and the session's real-time side.
 */
export function AppLayout() {
  const user = useCurrentUser();
  const theme = useTheme();
  const wide = useMediaQuery(WIDE_QUERY, { noSsr: true });
  // One state per variant: the narrow (modal) drawer always starts closed, so crossing the breakpoint
  // never mounts a modal that is open for one render and then left half-closed over the page.
  const [wideOpen, setWideOpen] = useState(true);
  const [narrowOpen, setNarrowOpen] = useState(false);
  const open = wide ? wideOpen : narrowOpen;
  const setOpen = wide ? setWideOpen : setNarrowOpen;
  const { pathname } = useLocation();

  const endedElsewhere = useSessionRealtime(user);
  const connectionsAlert = useConnectionsAlert(user.companyId);

  // Crossing the breakpoint resets the drawer to that width's default.
  useEffect(() => {
    setWideOpen(true);
    setNarrowOpen(false);
  }, [wide]);
  // Under 600 px the drawer closes after each navigation.
  useEffect(() => setNarrowOpen(false), [pathname]);

  // Logged in elsewhere: the page reloads in a moment; unmounting the pages stops their API calls.
  if (endedElsewhere) return <EndedElsewhere />;

  return (
    <Box sx={{ display: "flex", minHeight: "100vh" }}>
      <AppTopBar user={user} drawerOpen={open} wide={wide} onToggleDrawer={() => setOpen((o) => !o)} />
      <AppDrawer
        user={user}
        open={open}
        wide={wide}
        connectionsAlert={connectionsAlert}
        onClose={() => setNarrowOpen(false)}
        onNavigate={() => setNarrowOpen(false)}
      />
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, p: { xs: 1.5, sm: 2.5 }, bgcolor: theme.palette.background.default }}>
        <Toolbar />
        <Suspense fallback={<LinearProgress />}>
          <AppDialogsProvider>
            <Outlet />
          </AppDialogsProvider>
        </Suspense>
      </Box>
    </Box>
  );
}

/** What the shell shows between a login elsewhere and the reload (spec 1-core §4). */
function EndedElsewhere() {
  const { t } = useTranslation();
  return (
    <Box>
      <LinearProgress />
      <Typography role="alert" sx={{ p: 3, textAlign: "center" }}>
        {t("login.loggedElsewhere")}
      </Typography>
    </Box>
  );
}
