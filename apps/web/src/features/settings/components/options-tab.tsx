import { useQueryClient } from "@tanstack/react-query";
import { Box, FormControlLabel, MenuItem, Paper, Switch, TextField, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { SETTING_DEFAULTS, WEBHOOK_RETENTION_DAYS, type Setting, type SettingKey } from "@atende/shared";
import { toastError } from "../../../lib/toast-error";
import { useSession } from "../../../lib/session";
import { settingKeys, updateSetting } from "../api/settings";
import { TimeZoneSetting } from "./time-zone-setting";
import { CampaignLinksSetting } from "./campaign-links-setting";
import { logFailure } from "../../../lib/log-failure";

const SWITCHES: { key: SettingKey; superOnly?: boolean }[] = [
  { key: "requireTagBeforeClosing" },
  { key: "restrictSystemQueuesVisibility" },
  { key: "shareContactHistory" },
  { key: "enableBlockList" },
  { key: "sendGreetingAccepted" },
  { key: "userCreation", superOnly: true },
];

interface Props {
  settings: Setting[];
  isSuper: boolean;
  companyId: number;
}

/** Options tab (everyone who reaches the page): enabled/disabled switches, the schedule type, the time zone, the campaign links and the webhook retention. */
export function OptionsTab({ settings, isSuper, companyId }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { reload } = useSession();
  const value = (key: SettingKey) => settings.find((s) => s.key === key)?.value ?? SETTING_DEFAULTS[key];

  /**
   * Spec §8: an on/off setting says 'Configuração atualizada com sucesso.'; the schedule type (how the
   * company works, not a preference) says 'Operação atualizada com sucesso.'.
   */
  async function change(key: SettingKey, next: string, done: "settings.options.settingUpdated" | "settings.options.updated") {
    const previous = queryClient.getQueryData<Setting[]>(settingKeys.all);
    const patch = (list: Setting[] = []) => (list.some((s) => s.key === key) ? list.map((s) => (s.key === key ? { key, value: next } : s)) : [...list, { key, value: next }]);
    queryClient.setQueryData<Setting[]>(settingKeys.all, patch);
    try {
      await updateSetting(key, next);
      toast.success(t(done));
      // The session carries the company's settings (ticket rules read them): refresh it.
      void reload().catch((err: unknown) => logFailure("setting saved but the session could not be refreshed", err, { key }));
    } catch (err) {
      queryClient.setQueryData(settingKeys.all, previous);
      toastError(err);
    }
  }

  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", md: "1fr 1fr" }, gap: 2 }}>
        {SWITCHES.filter((s) => !s.superOnly || isSuper).map(({ key }) => (
          <Paper key={key} variant="outlined" sx={{ px: 2, py: 1.5, display: "flex", alignItems: "center" }}>
            <FormControlLabel
              sx={{ flexGrow: 1, m: 0, justifyContent: "space-between" }}
              labelPlacement="start"
              label={
                <Box>
                  <Typography>{t(`settings.options.${key}`)}</Typography>
                  <Typography variant="caption" color="text.secondary">
                    {value(key) === "enabled" ? t("settings.options.enabled") : t("settings.options.disabled")}
                  </Typography>
                </Box>
              }
              control={
                <Switch
                  name={key}
                  checked={value(key) === "enabled"}
                  onChange={(e) => void change(key, e.target.checked ? "enabled" : "disabled", "settings.options.settingUpdated")}
                  slotProps={{ input: { "aria-label": t(`settings.options.${key}`) } }}
                />
              }
            />
          </Paper>
        ))}
        <Paper variant="outlined" sx={{ px: 2, py: 1.5 }}>
          <TextField
            select
            fullWidth
            size="small"
            label={t("settings.options.scheduleType")}
            value={value("scheduleType")}
            onChange={(e) => void change("scheduleType", e.target.value, "settings.options.updated")}
            slotProps={{ select: { inputProps: { "data-testid": "schedule-type" } } }}
          >
            {(["disabled", "company", "queue"] as const).map((v) => (
              <MenuItem key={v} value={v}>
                {t(`settings.options.scheduleTypes.${v}`)}
              </MenuItem>
            ))}
          </TextField>
        </Paper>
        <Paper variant="outlined" sx={{ px: 2, py: 1.5 }}>
          <TextField
            select
            fullWidth
            size="small"
            label={t("settings.options.webhookRetentionDays")}
            helperText={t("settings.options.webhookRetentionHelp")}
            value={value("webhookRetentionDays")}
            onChange={(e) => void change("webhookRetentionDays", e.target.value, "settings.options.settingUpdated")}
            slotProps={{ select: { inputProps: { "data-testid": "webhook-retention-days" } } }}
          >
            {WEBHOOK_RETENTION_DAYS.map((v) => (
              <MenuItem key={v} value={v}>
                {t("settings.options.days", { count: Number(v) })}
              </MenuItem>
            ))}
          </TextField>
        </Paper>
        <TimeZoneSetting companyId={companyId} />
        {/* keyed by the stored values, so a change from elsewhere (another admin's save) refills the form */}
        <CampaignLinksSetting key={`${value("linkDomains")}|${value("linkHost")}`} linkDomains={value("linkDomains")} linkHost={value("linkHost")} />
      </Box>
    </Paper>
  );
}
