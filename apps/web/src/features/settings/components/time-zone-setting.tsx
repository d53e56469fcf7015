import { useMemo, useState } from "react";
import { Autocomplete, Paper, TextField, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { timeZoneNames } from "@atende/shared";
import { logFailure } from "../../../lib/log-failure";
import { useSession } from "../../../lib/session";
import { useCompanyTimeZone, zoneLabel } from "../../../lib/time-zone";
import { toastError } from "../../../lib/toast-error";
import { updateCompanyTimeZone } from "../api/companies";

/** The company's time zone (admins): opening hours, schedules, the dashboard and campaigns use it. */
export function TimeZoneSetting({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const { reload } = useSession();
  const current = useCompanyTimeZone();
  const [saving, setSaving] = useState<string | null>(null);
  const options = useMemo(() => timeZoneNames().sort(), []);
  const value = saving ?? current;

  async function change(next: string | null) {
    if (!next || next === current) return;
    setSaving(next);
    try {
      await updateCompanyTimeZone(companyId, next);
      toast.success(t("timeZone.updated"));
      // the session carries the zone every time field reads
      await reload().catch((err: unknown) => logFailure("time zone saved but the session could not be refreshed", err, { next }));
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(null);
    }
  }

  return (
    <Paper variant="outlined" sx={{ px: 2, py: 1.5 }}>
      <Autocomplete
        options={options}
        value={value}
        disableClearable
        loading={saving !== null}
        onChange={(_, v) => void change(v)}
        getOptionLabel={(zone) => zoneLabel(zone)}
        noOptionsText={t("timeZone.noOptions")}
        renderInput={(params) => <TextField {...params} size="small" label={t("timeZone.label")} inputProps={{ ...params.inputProps, "data-testid": "time-zone" }} />}
      />
      <Typography variant="caption" color="text.secondary">
        {t("timeZone.help")}
      </Typography>
    </Paper>
  );
}
