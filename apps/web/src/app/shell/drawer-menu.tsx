import { Fragment } from "react";
import { NavLink, useLocation } from "react-router-dom";
import { Badge, Divider, List, ListItemButton, ListItemIcon, ListItemText, ListSubheader, Tooltip } from "@mui/material";
import { useTranslation } from "react-i18next";
import { visibleMenu, type MenuItem, type MenuSection, type SessionUser } from "@atende/shared";
import { MENU_ICONS } from "./menu-icons";

const SECTION_TITLES: Record<Exclude<MenuSection, "main">, string> = {
  campaigns: "menu.sectionCampaigns",
  blocks: "menu.sectionBlocks",
  admin: "menu.sectionAdmin",
};
const SECTIONS: MenuSection[] = ["main", "campaigns", "blocks", "admin"];

function isActive(path: string, pathname: string): boolean {
  return path === "/" ? pathname === "/" : pathname === path || pathname.startsWith(`${path}/`);
}

interface Props {
  user: SessionUser;
  /** Drawer expanded: texts and section titles shown; collapsed shows icons with tooltips. */
  expanded: boolean;
  connectionsAlert: boolean;
  onNavigate(): void;
}

/** The menu of spec 1-core §2: the items the user's role, super flag and plan allow, grouped by section. */
export function DrawerMenu({ user, expanded, connectionsAlert, onNavigate }: Props) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const items = visibleMenu(user, user.company.plan, user.company);

  const renderItem = (item: MenuItem) => {
    const Icon = MENU_ICONS[item.key];
    const label = t(`menu.${item.key}`);
    const alert = item.key === "connections" && connectionsAlert;
    return (
      <Tooltip key={item.path} title={expanded ? "" : label} placement="right">
        <ListItemButton
          component={NavLink}
          to={item.path}
          end={item.path === "/"}
          selected={isActive(item.path, pathname)}
          onClick={onNavigate}
          data-menu-key={item.key}
          sx={{ minHeight: 40, px: 2.5, borderRadius: 1, mx: 1 }}
        >
          <ListItemIcon sx={{ minWidth: 0, mr: expanded ? 2 : "auto", justifyContent: "center" }}>
            <Badge color="error" variant="dot" invisible={!alert} data-testid={alert ? "connections-alert" : undefined}>
              {Icon ? <Icon fontSize="small" /> : null}
            </Badge>
          </ListItemIcon>
          {expanded && <ListItemText primary={label} slotProps={{ primary: { noWrap: true, fontSize: 14 } }} />}
        </ListItemButton>
      </Tooltip>
    );
  };

  return (
    <List component="nav" aria-label={t("shell.menu")} dense sx={{ py: 1 }}>
      {SECTIONS.map((section) => {
        const inSection = items.filter((i) => i.section === section);
        if (inSection.length === 0) return null;
        if (section === "main") return <Fragment key={section}>{inSection.map(renderItem)}</Fragment>;
        return (
          <Fragment key={section}>
            <Divider sx={{ my: 1 }} />
            {expanded && (
              <ListSubheader disableSticky sx={{ lineHeight: "32px", bgcolor: "transparent", fontWeight: 600, textTransform: "uppercase", fontSize: 11, letterSpacing: 0.6 }}>
                {t(SECTION_TITLES[section])}
              </ListSubheader>
            )}
            {inSection.map(renderItem)}
          </Fragment>
        );
      })}
    </List>
  );
}
