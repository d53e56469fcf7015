import { useEffect, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Box, Button, CircularProgress, Paper, Typography } from "@mui/material";
import SaveIcon from "@mui/icons-material/Save";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { DEFAULT_QUEUE_SCHEDULES, type ScheduleEntry } from "@atende/shared";
import { WeeklyHoursEditor, weeklyHoursValid } from "../../../components/weekly-hours-editor";
import { toastError } from "../../../lib/toast-error";
import { companyKeys, fetchCompany, updateCompanySchedules } from "../api/companies";

const SETTINGS_SUBMIT_DELAY_MS = 500;

/** Company opening hours (schedule type "company"): seven HH:MM rows, defaults of §9 when none are stored. */
export function HoursTab({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const company = useQuery({ queryKey: companyKeys.one(companyId), queryFn: () => fetchCompany(companyId) });
  const [schedules, setSchedules] = useState<ScheduleEntry[]>(DEFAULT_QUEUE_SCHEDULES);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (company.data) setSchedules(company.data.schedules.length > 0 ? company.data.schedules : DEFAULT_QUEUE_SCHEDULES);
  }, [company.data]);

  const valid = weeklyHoursValid(schedules);
  async function save() {
    if (!valid) return;
    setBusy(true);
    await new Promise((r) => setTimeout(r, SETTINGS_SUBMIT_DELAY_MS));
    try {
      const saved = await updateCompanySchedules(companyId, schedules);
      queryClient.setQueryData(companyKeys.one(companyId), saved);
      toast.success(t("settings.hours.saved"));
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper variant="outlined" sx={{ p: 3, maxWidth: 720 }}>
      <Typography variant="h6" gutterBottom>
        {t("settings.hours.title")}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t("settings.hours.help")}
      </Typography>
      {company.isLoading ? (
        <CircularProgress />
      ) : (
        <>
          {!valid && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {t("settings.hours.invalid")}
            </Alert>
          )}
          <WeeklyHoursEditor value={schedules} onChange={setSchedules} startLabel={t("settings.hours.start")} endLabel={t("settings.hours.end")} disabled={busy} />
          <Box sx={{ display: "flex", justifyContent: "flex-end", mt: 3 }}>
            <Button variant="contained" startIcon={busy ? <CircularProgress size={16} /> : <SaveIcon />} onClick={save} disabled={busy || !valid}>
              {t("settings.hours.save")}
            </Button>
          </Box>
        </>
      )}
    </Paper>
  );
}
