import { useState } from "react";
import { IconButton, ListItemText, Menu, MenuItem, Tooltip } from "@mui/material";
import Translate from "@mui/icons-material/Translate";
import { useTranslation } from "react-i18next";
import { LANGUAGES } from "@atende/shared";
import { setLanguage } from "../../lib/i18n";

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
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((lang) => (
          <MenuItem
            key={lang}
            selected={i18n.language === lang}
            onClick={() => {
              setLanguage(lang);
              setAnchor(null);
            }}
          >
            <ListItemText>{t(`languages.${lang}`)}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
