import { useEffect, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, MenuItem, Paper, Stack, TextField, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { offeredAtSignup, SIGNUP_TRIAL_DAYS_MAX } from "@atende/shared";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { fetchPlans, planKeys } from "../api/plans";
import { fetchSignupSettings, saveSignupSettings, signupSettingsKeys } from "../api/signup-settings";

const money = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });

/**
 * Sign-up (super only, on the Plans tab): the trial's days a self-registered company gets before its
 * first invoice is due, and the plan the sign-up form selects first (only plans with a value).
 */
export function SignupSettingsCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const current = useQuery({ queryKey: signupSettingsKeys.all, queryFn: ({ signal }) => fetchSignupSettings(signal) });
  const plans = useQuery({ queryKey: planKeys.all, queryFn: fetchPlans });
  const [trialDays, setTrialDays] = useState("");
  const [planId, setPlanId] = useState<number | "">("");
  useEffect(() => {
    if (!current.data) return;
    setTrialDays(String(current.data.trialDays));
    setPlanId(current.data.planId ?? "");
  }, [current.data]);
  const save = useMutation({
    mutationFn: () => saveSignupSettings({ trialDays: Number(trialDays), planId: planId === "" ? null : planId }),
    onSuccess: (saved) => {
      queryClient.setQueryData(signupSettingsKeys.all, saved);
      toast.success(t("settings.crud.success"));
    },
    onError: toastError,
  });
  const days = Number(trialDays);
  const daysValid = trialDays.trim() !== "" && Number.isInteger(days) && days >= 0 && days <= SIGNUP_TRIAL_DAYS_MAX;
  const priced = (plans.data ?? []).filter(offeredAtSignup);
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }} data-testid="signup-settings">
      <Typography variant="subtitle1" component="h2" sx={{ mb: 1 }}>
        {t("settings.signup.title")}
      </Typography>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2} alignItems={{ sm: "flex-start" }}>
        <TextField
          label={t("settings.signup.trialDays")}
          type="number"
          value={trialDays}
          onChange={(e) => setTrialDays(e.target.value)}
          error={!daysValid && trialDays !== ""}
          helperText={t("settings.signup.trialDaysHelp", { max: SIGNUP_TRIAL_DAYS_MAX })}
          slotProps={{ htmlInput: { min: 0, max: SIGNUP_TRIAL_DAYS_MAX, step: 1 } }}
          sx={{ minWidth: 180 }}
        />
        <TextField
          select
          label={t("settings.signup.plan")}
          value={planId}
          onChange={(e) => setPlanId(e.target.value === "" ? "" : Number(e.target.value))}
          helperText={t("settings.signup.planHelp")}
          sx={{ minWidth: 260 }}
          slotProps={{ select: { SelectDisplayProps: { "data-testid": "signup-plan-select" } as object } }}
        >
          <MenuItem value="">{t("settings.signup.noPlan")}</MenuItem>
          {priced.map((p) => (
            <MenuItem key={p.id} value={p.id}>
              {p.name} — {money.format(p.value)}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="contained" onClick={() => save.mutate()} disabled={!daysValid || save.isPending || !current.data} sx={{ mt: { sm: 1 } }}>
          {t("settings.signup.save")}
        </Button>
      </Stack>
    </Paper>
  );
}
