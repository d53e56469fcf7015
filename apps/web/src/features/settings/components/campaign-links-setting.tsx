import { useState } from "react";
import { Box, Button, Paper, TextField, Typography } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { settingValue, type Setting } from "@atende/shared";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { settingKeys, updateSetting } from "../api/settings";

interface Props {
  linkDomains: string;
  linkHost: string;
}

/**
 * The company's own domains (a campaign link to them skips the click page) and the host its campaign
 * links are served from (docs/settings.md "Campaign links"). Checked with the server's own rule.
 */
export function CampaignLinksSetting({ linkDomains, linkHost }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [domains, setDomains] = useState(linkDomains);
  const [host, setHost] = useState(linkHost);
  const [saving, setSaving] = useState(false);
  const domainsCheck = settingValue("linkDomains", domains);
  const hostCheck = settingValue("linkHost", host);
  const changed = domains !== linkDomains || host !== linkHost;

  async function save() {
    if ("refusal" in domainsCheck || "refusal" in hostCheck) return;
    setSaving(true);
    try {
      const saved: Setting[] = [];
      if (domains !== linkDomains) saved.push(await updateSetting("linkDomains", domainsCheck.value));
      if (host !== linkHost) saved.push(await updateSetting("linkHost", hostCheck.value));
      queryClient.setQueryData<Setting[]>(settingKeys.all, (list = []) =>
        saved.reduce((acc, s) => (acc.some((x) => x.key === s.key) ? acc.map((x) => (x.key === s.key ? s : x)) : [...acc, s]), list),
      );
      for (const s of saved) (s.key === "linkDomains" ? setDomains : setHost)(s.value);
      toast.success(t("settings.options.settingUpdated"));
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Paper variant="outlined" sx={{ px: 2, py: 1.5, gridColumn: { md: "1 / -1" } }} data-testid="campaign-links-setting">
      <Typography variant="subtitle1">{t("settings.links.title")}</Typography>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1.5 }}>
        {t("settings.links.help")}
      </Typography>
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", md: "2fr 1fr" }, gap: 2 }}>
        <TextField
          size="small"
          label={t("settings.links.domains")}
          placeholder="loja.com.br, lojaexemplo.com"
          value={domains}
          onChange={(e) => setDomains(e.target.value)}
          error={"refusal" in domainsCheck}
          helperText={"refusal" in domainsCheck ? t("settings.links.domainsInvalid") : t("settings.links.domainsHelp")}
          slotProps={{ htmlInput: { "data-testid": "link-domains", maxLength: 500 } }}
        />
        <TextField
          size="small"
          label={t("settings.links.host")}
          placeholder="links.loja.com.br"
          value={host}
          onChange={(e) => setHost(e.target.value)}
          error={"refusal" in hostCheck}
          helperText={"refusal" in hostCheck ? t("settings.links.hostInvalid") : t("settings.links.hostHelp")}
          slotProps={{ htmlInput: { "data-testid": "link-host", maxLength: 253 } }}
        />
      </Box>
      <Box sx={{ display: "flex", justifyContent: "flex-end", mt: 1 }}>
        <Button variant="contained" disabled={!changed || saving || "refusal" in domainsCheck || "refusal" in hostCheck} onClick={() => void save()}>
          {t("settings.links.save")}
        </Button>
      </Box>
    </Paper>
  );
}
