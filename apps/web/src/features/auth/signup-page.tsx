import { useEffect, useMemo } from "react";
import { Controller, useForm, type Resolver } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Link as RouterLink, useNavigate } from "react-router-dom";
import { Box, Button, Link, MenuItem, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { formatMoney, isUnlimited, MSG, offeredAtSignup, signupInput, type SignupInput } from "@atende/shared";
import { ApiError } from "../../lib/api";
import { toastError } from "../../lib/toast-error";
import { usePublicPlans } from "./api/get-public-plans";
import { useSignupOptions } from "./api/get-signup-options";
import { useSignup } from "./api/signup";
import { AuthCard } from "./components/auth-card";
import { formMessage } from "../../components/form-message";

type SignupForm = Omit<SignupInput, "planId"> & { planId: number | "" };

/** Server refusals worth naming; anything else asks the visitor to check the data. */
const NAMED_FAILURES = new Set(["ERR_USER_CREATION_DISABLED", "ERR_EMAIL_ALREADY_EXISTS", "ERR_TOO_MANY_REQUESTS", "ERR_PLAN_NOT_OFFERED"]);

/**
 * Public sign-up (2-administration §5): the company's name, the person's name (the first admin's),
 * e-mail, phone, password and plan. Only plans with a value are listed (`offeredAtSignup`); the one the
 * super administrator chose is selected first, and the trial's length is shown. `?companyId` is ignored.
 */
export default function SignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const plans = usePublicPlans();
  const options = useSignupOptions();
  const mutation = useSignup();
  const { register, control, handleSubmit, formState, getValues, setValue } = useForm<SignupForm>({
    resolver: zodResolver(signupInput) as unknown as Resolver<SignupForm>,
    defaultValues: { name: "", userName: "", email: "", phone: "", password: "", planId: "" },
  });
  const { errors } = formState;
  const offered = useMemo(() => (plans.data ?? []).filter(offeredAtSignup), [plans.data]);
  const firstPlanId = options.data?.planId;

  useEffect(() => {
    // the super administrator's plan, once both lists are in, unless the visitor already chose one
    if (firstPlanId && getValues("planId") === "" && offered.some((p) => p.id === firstPlanId)) setValue("planId", firstPlanId);
  }, [firstPlanId, offered, getValues, setValue]);

  useEffect(() => {
    if (plans.error) toastError(plans.error);
  }, [plans.error]);
  useEffect(() => {
    if (options.error) toastError(options.error);
  }, [options.error]);

  const submit = handleSubmit(async (values) => {
    try {
      await mutation.mutateAsync(values as SignupInput);
      toast.success(t("signup.success"));
      navigate("/login", { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.code && NAMED_FAILURES.has(err.code)) toastError(err);
      else toast.error(t("signup.failed"));
    }
  });

  const limit = (n: number) => (isUnlimited(n) ? t("signup.unlimited") : n);
  const trialDays = options.data?.trialDays;
  const subtitle = trialDays ? t("signup.subtitleTrial", { count: trialDays }) : t("signup.subtitle");
  return (
    <AuthCard title={t("signup.title")} subtitle={subtitle} onSubmit={submit} maxWidth={480}>
      <TextField required label={t("signup.name")} {...register("name")} error={!!errors.name} helperText={formMessage(errors.name?.message)} fullWidth margin="dense" autoFocus autoComplete="organization" />
      <TextField required label={t("signup.userName")} {...register("userName")} error={!!errors.userName} helperText={formMessage(errors.userName?.message)} fullWidth margin="dense" autoComplete="name" />
      <TextField required label={t("signup.email")} type="email" {...register("email")} error={!!errors.email} helperText={formMessage(errors.email?.message)} fullWidth margin="dense" autoComplete="email" />
      <TextField required label={t("signup.phone")} type="tel" {...register("phone")} error={!!errors.phone} helperText={formMessage(errors.phone?.message)} fullWidth margin="dense" autoComplete="tel" />
      <TextField required label={t("signup.password")} type="password" {...register("password")} error={!!errors.password} helperText={formMessage(errors.password?.message)} fullWidth margin="dense" autoComplete="new-password" />
      <Controller
        control={control}
        name="planId"
        render={({ field }) => (
          <TextField
            select
            required
            label={t("signup.plan")}
            value={field.value}
            onChange={(e) => field.onChange(e.target.value === "" ? "" : Number(e.target.value))}
            onBlur={field.onBlur}
            inputRef={field.ref}
            name={field.name}
            error={!!errors.planId}
            helperText={errors.planId ? formMessage(MSG.required) : undefined}
            fullWidth
            margin="dense"
            slotProps={{ select: { SelectDisplayProps: { "data-testid": "plan-select" } as object } }}
          >
            {offered.map((p) => (
              <MenuItem key={p.id} value={p.id}>
                {t("signup.planOption", { name: p.name, users: limit(p.users), connections: limit(p.connections), queues: limit(p.queues), value: formatMoney(p.value) })}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <Button type="submit" variant="contained" size="large" fullWidth sx={{ mt: 2 }} disabled={formState.isSubmitting}>
        {t("signup.submit")}
      </Button>
      <Box sx={{ mt: 2, textAlign: "center" }}>
        <Link component={RouterLink} to="/login" variant="body2">
          {t("signup.haveAccount")}
        </Link>
      </Box>
    </AuthCard>
  );
}
