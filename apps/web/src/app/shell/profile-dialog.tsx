import { useEffect } from "react";
import { useForm, type Resolver } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { MSG, userCreateInput, type SessionUser } from "@atende/shared";
import { api } from "../../lib/api";
import { toastError } from "../../lib/toast-error";
import { useSession } from "../../lib/session";
import { logFailure } from "../../lib/log-failure";
import { CurrentPasswordField } from "../../components/current-password-field";
import { formMessage } from "../../components/form-message";

/** The user's own data; a blank password keeps the current one, a new one needs the current one. */
const profileForm = z
  .object({
    name: userCreateInput.shape.name,
    email: userCreateInput.shape.email,
    password: z
      .string()
      .max(50, MSG.tooLong)
      .refine((v) => v === "" || v.length >= 5, MSG.tooShort),
    currentPassword: z.string().max(200, MSG.tooLong),
  })
  .refine((v) => v.password === "" || v.currentPassword !== "", { message: MSG.required, path: ["currentPassword"] });
type ProfileForm = z.infer<typeof profileForm>;

export function ProfileDialog({ user, open, onClose }: { user: SessionUser; open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { reload } = useSession();
  const { register, handleSubmit, reset, formState } = useForm<ProfileForm>({
    resolver: zodResolver(profileForm) as Resolver<ProfileForm>,
    defaultValues: { name: user.name, email: user.email, password: "", currentPassword: "" },
  });
  useEffect(() => {
    if (open) reset({ name: user.name, email: user.email, password: "", currentPassword: "" });
  }, [open, user.name, user.email, reset]);

  const submit = handleSubmit(async (values) => {
    try {
      await api(`/users/${user.id}`, {
        method: "PUT",
        body: {
          name: values.name,
          email: values.email,
          ...(values.password ? { password: values.password, currentPassword: values.currentPassword } : {}),
        },
      });
      toast.success(t("common.successOperation"));
      onClose();
      // saved already; a failed refresh leaves the old name on screen until the next load
      await reload().catch((err: unknown) => logFailure("profile saved but the session could not be refreshed", err));
    } catch (err) {
      toastError(err);
    }
  });

  const { errors, isSubmitting } = formState;
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{t("profile.title")}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField required label={t("profile.name")} {...register("name")} error={!!errors.name} helperText={formMessage(errors.name?.message)} autoFocus fullWidth />
            <TextField required label={t("profile.email")} type="email" {...register("email")} error={!!errors.email} helperText={formMessage(errors.email?.message)} fullWidth />
            <TextField
              label={t("profile.password")}
              type="password"
              autoComplete="new-password"
              {...register("password")}
              error={!!errors.password}
              helperText={formMessage(errors.password?.message) ?? t("profile.passwordHint")}
              fullWidth
            />
            <CurrentPasswordField registration={register("currentPassword")} error={errors.currentPassword?.message} />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {t("common.save")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
