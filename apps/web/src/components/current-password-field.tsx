import TextField from "@mui/material/TextField";
import { useTranslation } from "react-i18next";
import { formMessage } from "./form-message";
import type { UseFormRegisterReturn } from "react-hook-form";

/** The current password a user must give to change their own (profile dialog and own user form). */
export function CurrentPasswordField({ registration, error }: { registration: UseFormRegisterReturn; error?: string }) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t("profile.currentPassword")}
      type="password"
      autoComplete="current-password"
      {...registration}
      error={!!error}
      helperText={formMessage(error) ?? t("profile.currentPasswordHint")}
      fullWidth
    />
  );
}
