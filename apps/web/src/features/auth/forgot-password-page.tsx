import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Link as RouterLink, useNavigate } from "react-router-dom";
import { Box, Button, CircularProgress, Link, Stack, TextField, Typography } from "@mui/material";
import { AuthCard } from "./components/auth-card";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { forgetPasswordParams, resetPasswordForm } from "@atende/shared";
import type { z } from "zod";
import { formMessage } from "../../components/form-message";
import { api, ApiError } from "../../lib/api";
import { toastError } from "../../lib/toast-error";

type EmailForm = z.input<typeof forgetPasswordParams>;
type ResetForm = z.input<typeof resetPasswordForm>;

/** 'Email não encontrado' when the answer (status or body) says 404 (3-bulk §8). */
function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 404 || err.body.status === 404 || err.code === "ERR_NO_USER_FOUND");
}

/**
 * Password reset (/forgetpsw): step 1 asks for the e-mail and sends a code; step 2 takes the code, the
 * new password and its confirmation, then goes to /login.
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [email, setEmail] = useState<string | null>(null);
  const step1 = useForm<EmailForm>({ resolver: zodResolver(forgetPasswordParams), defaultValues: { email: "" } });
  const step2 = useForm<ResetForm>({ resolver: zodResolver(resetPasswordForm), defaultValues: { token: "", newPassword: "", confirmPassword: "" } });

  const sendCode = step1.handleSubmit(async ({ email: address }) => {
    const clean = address.trim();
    await new Promise((r) => setTimeout(r, 400));
    try {
      await api(`/forgetpassword/${encodeURIComponent(clean)}`, { method: "POST", raw: true });
      toast.success(t("passwordReset.codeSent"));
      step2.reset();
      setEmail(clean);
    } catch (err) {
      if (isNotFound(err)) {
        step1.setError("email", { message: "passwordReset.emailNotFound" });
        toast.error(t("passwordReset.emailNotFound"));
      } else toastError(err);
    }
  });

  const reset = step2.handleSubmit(async ({ token, newPassword }) => {
    if (!email) return;
    await new Promise((r) => setTimeout(r, 400));
    try {
      const path = [email, token.trim(), newPassword].map(encodeURIComponent).join("/");
      await api(`/resetpasswords/${path}`, { method: "POST", raw: true });
      toast.success(t("passwordReset.success"));
      navigate("/login");
    } catch (err) {
      if (err instanceof ApiError && err.code === "ERR_INVALID_RESET_CODE") {
        step2.setError("token", { message: "passwordReset.invalidCode" });
        toast.error(t("passwordReset.invalidCode"));
      } else if (isNotFound(err)) toast.error(t("passwordReset.emailNotFound"));
      else toastError(err);
    }
  });

  const e1 = step1.formState.errors;
  const e2 = step2.formState.errors;
  return (
    <AuthCard title={t("passwordReset.title")}>
      {email === null ? (
        <Box component="form" onSubmit={sendCode} noValidate data-testid="reset-step-1">
          <Typography variant="body2" color="text.secondary">
            {t("passwordReset.step1Help")}
          </Typography>
          <TextField
            label={t("passwordReset.email")}
            type="email"
            autoComplete="email"
            {...step1.register("email")}
            error={!!e1.email}
            helperText={formMessage(e1.email?.message)}
            fullWidth
            margin="normal"
            required
            autoFocus
          />
          <Button type="submit" variant="contained" fullWidth sx={{ mt: 2 }} disabled={step1.formState.isSubmitting} startIcon={step1.formState.isSubmitting ? <CircularProgress size={16} /> : undefined}>
            {t("passwordReset.sendCode")}
          </Button>
        </Box>
      ) : (
        <Box component="form" onSubmit={reset} noValidate data-testid="reset-step-2">
          <Typography variant="body2" color="text.secondary">
            {t("passwordReset.step2Help", { email })}
          </Typography>
          <TextField
            label={t("passwordReset.code")}
            {...step2.register("token")}
            error={!!e2.token}
            helperText={formMessage(e2.token?.message)}
            fullWidth
            margin="normal"
            required
            autoFocus
            autoComplete="one-time-code"
            slotProps={{ htmlInput: { inputMode: "numeric" } }}
          />
          <TextField
            label={t("passwordReset.password")}
            type="password"
            autoComplete="new-password"
            {...step2.register("newPassword")}
            error={!!e2.newPassword}
            helperText={formMessage(e2.newPassword?.message)}
            fullWidth
            margin="normal"
            required
          />
          <TextField
            label={t("passwordReset.confirm")}
            type="password"
            autoComplete="new-password"
            {...step2.register("confirmPassword")}
            error={!!e2.confirmPassword}
            helperText={formMessage(e2.confirmPassword?.message)}
            fullWidth
            margin="normal"
            required
          />
          <Button type="submit" variant="contained" fullWidth sx={{ mt: 2 }} disabled={step2.formState.isSubmitting} startIcon={step2.formState.isSubmitting ? <CircularProgress size={16} /> : undefined}>
            {t("passwordReset.reset")}
          </Button>
          <Button fullWidth sx={{ mt: 1 }} onClick={() => setEmail(null)}>
            {t("passwordReset.back")}
          </Button>
        </Box>
      )}
      <Stack direction="row" sx={{ justifyContent: "space-between", mt: 3 }}>
        <Link component={RouterLink} to="/login" variant="body2">
          {t("passwordReset.login")}
        </Link>
        <Link component={RouterLink} to="/signup" variant="body2">
          {t("passwordReset.signup")}
        </Link>
      </Stack>
    </AuthCard>
  );
}
