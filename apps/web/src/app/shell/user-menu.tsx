import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { Avatar, Divider, IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip, Typography } from "@mui/material";
import Logout from "@mui/icons-material/Logout";
import PersonOutline from "@mui/icons-material/PersonOutline";
import { useTranslation } from "react-i18next";
import type { SessionUser } from "@atende/shared";
import { useSession } from "../../features/auth/session";
import { ProfileDialog } from "./profile-dialog";

function initials(name: string): string {
  const parts = name.trim().split(/\s+/);
  return ((parts[0]?.[0] ?? "") + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? "") : "")).toUpperCase();
}

/** The account menu of the app bar: profile dialog and logout. */
export function UserMenu({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
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
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: "bottom", horizontal: "right" }} transformOrigin={{ vertical: "top", horizontal: "right" }}>
        <Typography variant="subtitle2" sx={{ px: 2, pt: 1 }}>
          {user.name}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1 }}>
          {user.email}
        </Typography>
        <Divider />
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
      </Menu>
      <ProfileDialog user={user} open={profileOpen} onClose={() => setProfileOpen(false)} />
    </>
  );
}
