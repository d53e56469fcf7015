import { AppBar, Box, IconButton, Toolbar, Tooltip, Typography } from "@mui/material";
import Brightness4 from "@mui/icons-material/Brightness4";
import Brightness7 from "@mui/icons-material/Brightness7";
import ChatBubble from "@mui/icons-material/ChatBubble";
import MenuIcon from "@mui/icons-material/Menu";
import MenuOpen from "@mui/icons-material/MenuOpen";
import Refresh from "@mui/icons-material/Refresh";
import { useTranslation } from "react-i18next";
import type { SessionUser } from "@atende/shared";
import { AnnouncementsButton } from "../../features/announcements/components/announcements-button";
import { ChatsButton } from "../../features/chats/components/chats-button";
import { TicketNotificationsButton } from "../../features/tickets/components/notifications-button";
import { useColorMode } from "../color-mode";
import { Greeting } from "./greeting";
import { LanguageMenu } from "./language-menu";
import { UserMenu } from "./user-menu";
import { VolumeControl } from "./volume-control";

interface Props {
  user: SessionUser;
  drawerOpen: boolean;
  wide: boolean;
  onToggleDrawer(): void;
}

/**
 * The app bar: drawer toggle, product name, greeting, refresh, notifications, announcements, internal chat, volume, theme, language
 * and account menu. Under 600 px the greeting is hidden and volume, theme and language move into the
 * account menu, so the bar never overflows.
 */
export function AppTopBar({ user, drawerOpen, wide, onToggleDrawer }: Props) {
  const { t } = useTranslation();
  const { mode, toggle } = useColorMode();
  return (
    <AppBar position="fixed" elevation={0} sx={{ zIndex: (theme) => theme.zIndex.drawer + 1, borderBottom: 1, borderColor: "divider" }}>
      <Toolbar sx={{ gap: wide ? 1 : 0.25 }}>
        <IconButton color="inherit" edge="start" aria-label={t("shell.toggleMenu")} aria-expanded={drawerOpen} onClick={onToggleDrawer}>
          {drawerOpen && wide ? <MenuOpen /> : <MenuIcon />}
        </IconButton>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, mr: wide ? 2 : 0, minWidth: 0 }}>
          <ChatBubble fontSize="small" />
          <Typography variant="h6" component="span" sx={{ fontWeight: 700, letterSpacing: 0.3 }}>
            Atende
          </Typography>
        </Box>
        <Box sx={{ flexGrow: 1, minWidth: 0, display: { xs: "none", md: "flex" } }}>
          <Greeting user={user} />
        </Box>
        <Box sx={{ flexGrow: { xs: 1, md: 0 } }} />
        <Tooltip title={t("shell.refresh")}>
          <IconButton color="inherit" aria-label={t("shell.refresh")} onClick={() => window.location.reload()}>
            <Refresh />
          </IconButton>
        </Tooltip>
        <TicketNotificationsButton />
        <AnnouncementsButton />
        <ChatsButton />
        {wide && (
          <>
            <VolumeControl />
            <Tooltip title={mode === "dark" ? t("shell.lightTheme") : t("shell.darkTheme")}>
              <IconButton color="inherit" aria-label={t("shell.toggleTheme")} data-theme-mode={mode} onClick={toggle}>
                {mode === "dark" ? <Brightness7 /> : <Brightness4 />}
              </IconButton>
            </Tooltip>
            <LanguageMenu />
          </>
        )}
        <UserMenu user={user} compact={!wide} />
      </Toolbar>
    </AppBar>
  );
}
