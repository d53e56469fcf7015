import { useState } from "react";
import { IconButton, ListItemIcon, ListItemText, MenuItem, Tooltip } from "@mui/material";
import Check from "@mui/icons-material/Check";
import Translate from "@mui/icons-material/Translate";
import { useTranslation } from "react-i18next";
import { LANGUAGES } from "@atende/shared";
import { LazyMenu } from "../../components/lazy-menu";
import { setLanguage } from "../../lib/i18n";

/** One menu item per interface language, the current one checked; `onPicked` after the change. */
export function languageItems(current: string, label: (lang: string) => string, onPicked: () => void) {
  return LANGUAGES.map((lang) => (
    <MenuItem
      key={lang}
      selected={current === lang}
      onClick={() => {
        setLanguage(lang);
        onPicked();
      }}
    >
      <ListItemIcon>{current === lang && <Check fontSize="small" />}</ListItemIcon>
      <ListItemText>{label(lang)}</ListItemText>
    </MenuItem>
  ));
}

/** Interface language: Portuguese (default), English, Spanish; stored locally. */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={t("shell.language")}>
        <IconButton color="inherit" aria-label={t("shell.language")} onClick={(e) => setAnchor(e.currentTarget)}>
          <Translate />
        </IconButton>
      </Tooltip>
      <LazyMenu anchorEl={anchor} onClose={() => setAnchor(null)}>
        {languageItems(i18n.language, (lang) => t(`languages.${lang}`), () => setAnchor(null))}
      </LazyMenu>
    </>
  );
}
