import { useEffect } from "react";
import { Controller, useForm, type Resolver } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import {
  Box,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  ListItemText,
  MenuItem,
  Stack,
  Switch,
  TextField,
} from "@mui/material";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { can, MSG, PROFILES, userCreateInput, type Profile, type SessionUser, type User } from "@atende/shared";
import { useConnections } from "../api/get-connections";
import { useQueues } from "../api/get-queues";
import { useSaveUser } from "../api/save-user";
import { logFailure } from "../../../lib/log-failure";
import { CurrentPasswordField } from "../../../components/current-password-field";
import { formMessage } from "../../../components/form-message";

interface FormValues {
  name: string;
  email: string;
  password: string;
  /** Asked only when users change their own password. */
  currentPassword: string;
  profile: Profile;
  queueIds: number[];
  whatsappId: number | "";
  allTicket: boolean;
}

/** The user form of 1-core §5: name 2-50, e-mail, password 5-50 (optional when editing), profile required. */
const schemaFor = (editing: boolean, self: boolean) =>
  z
    .object({
    name: userCreateInput.shape.name,
    email: userCreateInput.shape.email,
    password: editing
      ? z
          .string()
          .max(50, MSG.tooLong)
          .refine((v) => v === "" || v.length >= 5, MSG.tooShort)
      : z.string().min(1, MSG.required).min(5, MSG.tooShort).max(50, MSG.tooLong),
    currentPassword: z.string().max(200, MSG.tooLong),
    profile: z.enum(PROFILES, { error: MSG.required }),
    queueIds: z.array(z.number()),
    whatsappId: z.number().or(z.literal("")),
    allTicket: z.boolean(),
  })
    .refine((v) => !self || v.password === "" || v.currentPassword !== "", { message: MSG.required, path: ["currentPassword"] });

const emptyValues: FormValues = { name: "", email: "", password: "", currentPassword: "", profile: "user", queueIds: [], whatsappId: "", allTicket: false };

function valuesOf(user: User | null): FormValues {
  if (!user) return emptyValues;
  return {
    name: user.name,
    email: user.email,
    password: "",
    currentPassword: "",
    profile: user.profile,
    queueIds: user.queues.map((q) => q.id),
    whatsappId: user.whatsappId ?? "",
    allTicket: user.allTicket === "enable",
  };
}

interface Props {
  open: boolean;
  /** The user being edited; null creates one. */
  user: User | null;
  actor: SessionUser;
  onClose(): void;
}

export function UserDialog({ open, user, actor, onClose }: Props) {
  const { t } = useTranslation();
  const editing = user !== null;
  const self = user?.id === actor.id;
  const canEditProfile = can(actor, "user-modal:editProfile");
  const canEditQueues = can(actor, "user-modal:editQueues");
  const queues = useQueues();
  const connections = useConnections();
  const save = useSaveUser();
  const { register, control, handleSubmit, reset, formState } = useForm<FormValues>({
    resolver: zodResolver(schemaFor(editing, self)) as unknown as Resolver<FormValues>,
    defaultValues: valuesOf(user),
  });
  useEffect(() => {
    if (open) reset(valuesOf(user));
  }, [open, user, reset]);

  const submit = handleSubmit(async (v) => {
    const common = {
      name: v.name,
      email: v.email,
      whatsappId: v.whatsappId === "" ? null : v.whatsappId,
      ...(canEditProfile ? { profile: v.profile, allTicket: v.allTicket ? ("enable" as const) : ("disable" as const) } : {}),
      ...(canEditQueues ? { queueIds: v.queueIds } : {}),
    };
    try {
      const password = v.password ? { password: v.password, ...(self ? { currentPassword: v.currentPassword } : {}) } : {};
      if (user) await save.mutateAsync({ id: user.id, input: { ...common, ...password } });
      else await save.mutateAsync({ input: { profile: "user", queueIds: [], allTicket: "disable", ...common, password: v.password } });
      toast.success(t("users.saved"));
      onClose();
    } catch (err) {
      // useSaveUser already showed the error toast; the dialog stays open for a correction.
      logFailure("saving a user failed", err, { userId: user?.id });
    }
  });

  const { errors, isSubmitting } = formState;
  const queueName = (id: number) => queues.data?.find((q) => q.id === id)?.name ?? user?.queues.find((q) => q.id === id)?.name ?? String(id);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="user-dialog-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="user-dialog-title">{editing ? t("users.editTitle") : t("users.addTitle")}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
              <TextField required label={t("users.fields.name")} {...register("name")} error={!!errors.name} helperText={formMessage(errors.name?.message)} fullWidth autoFocus />
              <TextField
                required={!editing}
                label={t("users.fields.password")}
                type="password"
                autoComplete="new-password"
                {...register("password")}
                error={!!errors.password}
                helperText={formMessage(errors.password?.message) ?? (editing ? t("users.passwordKeep") : undefined)}
                fullWidth
              />
            </Stack>
            {self && (
              <CurrentPasswordField registration={register("currentPassword")} error={errors.currentPassword?.message} />
            )}
            <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
              <TextField required label={t("users.fields.email")} type="email" {...register("email")} error={!!errors.email} helperText={formMessage(errors.email?.message)} fullWidth />
              {canEditProfile && (
                <Controller
                  control={control}
                  name="profile"
                  render={({ field }) => (
                    <TextField select required label={t("users.fields.profile")} name={field.name} value={field.value} onChange={(e) => field.onChange(e.target.value)} onBlur={field.onBlur} inputRef={field.ref} error={!!errors.profile} helperText={formMessage(errors.profile?.message)} fullWidth>
                      {PROFILES.map((p) => (
                        <MenuItem key={p} value={p}>
                          {t(`users.profiles.${p}`)}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
              )}
            </Stack>
            {canEditQueues && (
              <Controller
                control={control}
                name="queueIds"
                render={({ field }) => (
                  <TextField
                    select
                    label={t("users.fields.queues")}
                    value={field.value}
                    onChange={(e) => field.onChange(e.target.value as unknown as number[])}
                    fullWidth
                    slotProps={{
                      select: {
                        multiple: true,
                        renderValue: (selected) => (
                          <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
                            {(selected as number[]).map((id) => (
                              <Chip key={id} size="small" label={queueName(id)} />
                            ))}
                          </Box>
                        ),
                      },
                    }}
                    helperText={queues.data?.length === 0 ? t("users.noQueues") : undefined}
                  >
                    {(queues.data ?? []).map((q) => (
                      <MenuItem key={q.id} value={q.id}>
                        <Checkbox size="small" checked={field.value.includes(q.id)} />
                        <ListItemText primary={q.name} />
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            )}
            <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
              <Controller
                control={control}
                name="whatsappId"
                render={({ field }) => (
                  <TextField
                    select
                    label={t("users.fields.whatsapp")}
                    value={field.value}
                    onChange={(e) => field.onChange(e.target.value === "" ? "" : Number(e.target.value))}
                    fullWidth
                  >
                    <MenuItem value="">{t("users.noConnection")}</MenuItem>
                    {(connections.data ?? []).map((c) => (
                      <MenuItem key={c.id} value={c.id}>
                        {c.name}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
              {canEditProfile && (
                <Controller
                  control={control}
                  name="allTicket"
                  render={({ field }) => (
                    <FormControlLabel
                      sx={{ flexShrink: 0, minWidth: 220 }}
                      control={<Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />}
                      label={t("users.fields.allTicket")}
                    />
                  )}
                />
              )}
            </Stack>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {editing ? t("common.save") : t("common.add")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
