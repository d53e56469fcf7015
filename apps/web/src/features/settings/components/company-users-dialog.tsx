import { useEffect, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  TextField,
  Typography,
} from "@mui/material";
import EditIcon from "@mui/icons-material/Edit";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { z } from "zod";
import { MSG, PROFILES, userUpdateInput, type Company, type User } from "@atende/shared";
import { formMessage } from "../../../components/form-message";
import { FormTextField } from "../../../components/form-text-field";
import { toastError } from "../../../lib/toast-error";
import { companyUserKeys, fetchCompanyUser, fetchCompanyUsers, updateCompanyUser } from "../api/company-users";
import { logFailure } from "../../../lib/log-failure";

const DETAILS_MAX = 50;

const formSchema = z.object({
  name: userUpdateInput.shape.name.unwrap(),
  email: userUpdateInput.shape.email.unwrap(),
  profile: z.enum(PROFILES, { error: MSG.required }),
  password: z
    .string()
    .max(50, MSG.tooLong)
    .refine((v) => v === "" || v.length >= 5, MSG.tooShort),
});
type FormValues = z.infer<typeof formSchema>;

/** Edits one user of another company: name, e-mail, profile and, when filled, a new password. */
function CompanyUserForm({ user, onDone }: { user: User; onDone(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { control, handleSubmit, formState } = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: { name: user.name, email: user.email, profile: user.profile, password: "" },
  });
  const submit = handleSubmit(async (v) => {
    try {
      await updateCompanyUser(user.id, { name: v.name, email: v.email, profile: v.profile, ...(v.password ? { password: v.password } : {}) });
      await queryClient.invalidateQueries({ queryKey: companyUserKeys.list(user.companyId) });
      queryClient.removeQueries({ queryKey: companyUserKeys.one(user.id) });
      toast.success(t("settings.crud.success"));
      onDone();
    } catch (err) {
      toastError(err);
    }
  });
  return (
    <Box component="form" id="company-user-form" onSubmit={submit} noValidate sx={{ display: "grid", gap: 2, pt: 1 }} aria-label={t("settings.companyUsers.editTitle")}>
      <FormTextField control={control} name="name" label={t("settings.companyUsers.name")} required autoFocus />
      <FormTextField control={control} name="email" label={t("settings.companyUsers.email")} required type="email" />
      <Controller
        control={control}
        name="profile"
        render={({ field, fieldState }) => (
          <TextField select label={t("settings.companyUsers.profile")} value={field.value} onChange={field.onChange} error={!!fieldState.error} helperText={formMessage(fieldState.error?.message)} disabled={user.super}>
            {PROFILES.map((p) => (
              <MenuItem key={p} value={p}>
                {t(`settings.companyUsers.profiles.${p}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <FormTextField control={control} name="password" label={t("settings.companyUsers.password")} type="password" autoComplete="new-password" helperText={t("settings.companyUsers.passwordHelp")} />
      <Box sx={{ display: "flex", justifyContent: "flex-end", gap: 1 }}>
        <Button onClick={onDone} disabled={formState.isSubmitting}>
          {t("common.cancel")}
        </Button>
        <Button type="submit" variant="contained" disabled={formState.isSubmitting}>
          {t("settings.crud.save")}
        </Button>
      </Box>
    </Box>
  );
}

/**
 * "Open the company's user" (2-administration §2, Companies tab): the users of the chosen company, the
 * one whose e-mail is the company's first; a super administrator edits any of them.
 */
export function CompanyUsersDialog({ company, open, onClose }: { company: Company | null; open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const companyId = company?.id ?? 0;
  const [editingId, setEditingId] = useState<number | null>(null);
  const users = useQuery({ queryKey: companyUserKeys.list(companyId), queryFn: () => fetchCompanyUsers(companyId), enabled: open && companyId > 0 });
  const editing = useQuery({ queryKey: companyUserKeys.one(editingId ?? 0), queryFn: () => fetchCompanyUser(editingId!), enabled: editingId !== null });

  useEffect(() => {
    if (open) setEditingId(null);
  }, [open, companyId]);
  useEffect(() => {
    if (users.error) toastError(users.error);
  }, [users.error]);
  useEffect(() => {
    if (editing.error) {
      toastError(editing.error);
      setEditingId(null);
    }
  }, [editing.error]);

  // The list call names the users only; their e-mails (to spot the company's own user) come from each
  // user's record, read for the first DETAILS_MAX of them.
  const details = useQuery({
    queryKey: [...companyUserKeys.list(companyId), "details"],
    queryFn: () => Promise.all((users.data ?? []).slice(0, DETAILS_MAX).map((u) => fetchCompanyUser(u.id).catch((err: unknown) => {
            // that user is listed without its e-mail
            logFailure("reading a company user's details failed", err, { companyId, userId: u.id });
            return null;
          }))),
    enabled: open && !!users.data,
  });
  const byId = new Map((details.data ?? []).filter((u): u is User => u !== null).map((u) => [u.id, u]));
  const isCompanyUser = (id: number) => !!company?.email && byId.get(id)?.email.toLowerCase() === company.email.toLowerCase();
  const rows = [...(users.data ?? [])].sort((a, b) => Number(isCompanyUser(b.id)) - Number(isCompanyUser(a.id)) || a.name.localeCompare(b.name));

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="company-users-title">
      <DialogTitle id="company-users-title">
        {editingId === null ? t("settings.companyUsers.title", { company: company?.name ?? "" }) : t("settings.companyUsers.editTitle")}
      </DialogTitle>
      <DialogContent dividers>
        {editingId !== null ? (
          editing.data ? (
            <CompanyUserForm user={editing.data} onDone={() => setEditingId(null)} />
          ) : (
            <Box sx={{ display: "grid", placeItems: "center", py: 4 }}>
              <CircularProgress />
            </Box>
          )
        ) : users.isLoading || (users.data && details.isLoading) ? (
          <Box sx={{ display: "grid", placeItems: "center", py: 4 }}>
            <CircularProgress />
          </Box>
        ) : rows.length === 0 ? (
          <Typography color="text.secondary">{t("settings.crud.empty")}</Typography>
        ) : (
          <List disablePadding>
            {rows.map((u) => (
              <ListItem
                key={u.id}
                divider
                data-testid="company-user"
                secondaryAction={
                  <Button size="small" startIcon={<EditIcon />} onClick={() => setEditingId(u.id)}>
                    {t("settings.companyUsers.edit")}
                  </Button>
                }
                sx={{ pr: 14 }}
              >
                <ListItemText
                  primary={
                    <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
                      <span>{u.name}</span>
                      {isCompanyUser(u.id) && <Chip size="small" color="primary" variant="outlined" label={t("settings.companyUsers.companyEmail")} />}
                    </Box>
                  }
                  secondary={byId.has(u.id) ? `${byId.get(u.id)!.email} · ${t(`settings.companyUsers.profiles.${byId.get(u.id)!.profile}`)}` : undefined}
                />
              </ListItem>
            ))}
          </List>
        )}
      </DialogContent>
      {editingId === null && (
        <DialogActions>
          <Button onClick={onClose}>{t("common.close")}</Button>
        </DialogActions>
      )}
    </Dialog>
  );
}
