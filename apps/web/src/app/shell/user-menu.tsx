import { lazy, Suspense, useState } from "react";
import { useNavigate } from "react-router-dom";
import { Avatar, Divider, IconButton, ListItemIcon, ListItemText, ListSubheader, MenuItem, Tooltip, Typography } from "@mui/material";
import Brightness4 from "@mui/icons-material/Brightness4";
import Brightness7 from "@mui/icons-material/Brightness7";
import Logout from "@mui/icons-material/Logout";
import PersonOutline from "@mui/icons-material/PersonOutline";
import { useTranslation } from "react-i18next";
import type { SessionUser } from "@atende/shared";
import { LazyMenu } from "../../components/lazy-menu";
import { useSession } from "../../lib/session";
import { useColorMode } from "../color-mode";
import { languageItems } from "./language-menu";
import { VolumeSlider } from "./volume-control";

// the profile form (and its schema library) loads when opened, not with every page
const ProfileDialog = lazy(() => import("./profile-dialog").then((m) => ({ default: m.ProfileDialog })));

function initials(name: string): string {
  const parts = name.trim().split(/\s+/);
  return ((parts[0]?.[0] ?? "") + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? "") : "")).toUpperCase();
}

/**
 * The account menu of the app bar: profile dialog and logout. `compact` (narrow screens) also holds
 * the volume, theme and language controls the app bar has no room for.
 */
export function UserMenu({ user, compact = false }: { user: SessionUser; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const { mode, toggle } = useColorMode();
  const { logout } = useSession();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [profileOpen, setProfileOpen] = useState(false);
  return (
    <>
      <Tooltip title={t("shell.account")}>
        <IconButton color="inherit" aria-label={t("shell.account")} onClick={(e) => setAnchor(e.currentTarget)} sx={{ ml: 0.5 }}>
          <Avatar sx={{ width: 32, height: 32, fontSize: 14, bgcolor: "secondary.main" }}>{initials(user.name)}</Avatar>
        </IconButton>
      </Tooltip>
      <LazyMenu anchorEl={anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: "bottom", horizontal: "right" }} transformOrigin={{ vertical: "top", horizontal: "right" }}>
        <Typography variant="subtitle2" sx={{ px: 2, pt: 1 }}>
          {user.name}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1 }}>
          {user.email}
        </Typography>
        <Divider />
        {compact && [
          <Suspense key="volume" fallback={null}>
            <VolumeSlider />
          </Suspense>,
          <MenuItem key="theme" onClick={toggle} data-theme-mode={mode}>
            <ListItemIcon>{mode === "dark" ? <Brightness7 fontSize="small" /> : <Brightness4 fontSize="small" />}</ListItemIcon>
            <ListItemText>{mode === "dark" ? t("shell.lightTheme") : t("shell.darkTheme")}</ListItemText>
          </MenuItem>,
          <ListSubheader key="language" sx={{ lineHeight: "32px", bgcolor: "transparent" }}>
            {t("shell.language")}
          </ListSubheader>,
          ...languageItems(i18n.language, (lang) => t(`languages.${lang}`), () => setAnchor(null)),
          <Divider key="divider" />,
        ]}
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setProfileOpen(true);
          }}
        >
          <ListItemIcon>
            <PersonOutline fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t("shell.profile")}</ListItemText>
        </MenuItem>
        <MenuItem
          onClick={async () => {
            setAnchor(null);
            await logout();
            navigate("/login", { replace: true });
          }}
        >
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t("shell.logout")}</ListItemText>
        </MenuItem>
      </LazyMenu>
      {profileOpen && (
        <Suspense fallback={null}>
          <ProfileDialog user={user} open onClose={() => setProfileOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
