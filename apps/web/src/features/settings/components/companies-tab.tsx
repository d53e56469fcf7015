import { useEffect, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Box, Button, MenuItem, Paper, Table, TableBody, TableCell, TableHead, TableRow, TableContainer, TextField, Typography } from "@mui/material";
import { alpha } from "@mui/material/styles";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { z } from "zod";
import { BI_URL_MESSAGES, biUrlRefusal, emailField, MSG, requiredString, type Company } from "@atende/shared";
import { ConfirmationDialog } from "../../../components/confirmation-dialog";
import { formMessage } from "../../../components/form-message";
import { DateField } from "../../../components/date-time-field";
import { FormTextField } from "../../../components/form-text-field";
import { ApiError } from "../../../lib/api";
import { errorText } from "../../../lib/toast-error";
import { formatDate } from "../../../lib/format-date";
import { companyKeys, createCompany, deleteCompany, fetchCompanies, updateCompany } from "../api/companies";
import { fetchPlans, planKeys } from "../api/plans";
import { CompanyUsersDialog } from "./company-users-dialog";
import { addPeriod, DUE_TONE_COLORS, dueTone, validDueDate } from "./due-date";

const formSchema = z.object({
  name: requiredString(2, 100),
  email: emailField,
  phone: z.string().trim().max(30, MSG.tooLong),
  planId: z.union([z.literal(""), z.coerce.number()]).refine((v) => v !== "" && v > 0, MSG.required),
  status: z.boolean(),
  campaignsEnabled: z.boolean(),
  dueDate: z.string(),
  recurrence: z.string(),
  document: z.string().trim().max(30, MSG.tooLong),
  billingName: z.string().trim().max(200, MSG.tooLong),
  biUrl: z.string().trim().max(2000, MSG.tooLong),
  password: z.string().max(50, MSG.tooLong),
});
type FormValues = z.input<typeof formSchema>;

/** The server's biUrl refusal (its message is one of BI_URL_MESSAGES), as the key of the form's own words. */
function biRefusalOf(message: string | undefined) {
  return (Object.keys(BI_URL_MESSAGES) as (keyof typeof BI_URL_MESSAGES)[]).find((k) => BI_URL_MESSAGES[k] === message);
}

const EMPTY: FormValues = {
  name: "",
  email: "",
  phone: "",
  planId: "",
  status: true,
  campaignsEnabled: true,
  dueDate: "",
  recurrence: "MENSAL",
  document: "",
  billingName: "",
  biUrl: "",
  password: "",
};

/** Errors that mean something precise keep their own text; the rest get the §8 save message. */
const SPECIFIC = new Set(["ERR_CANNOT_DELETE_SUPER_COMPANY", "ERR_CANNOT_UPDATE_SUPER_COMPANY_DUE_DATE", "ERR_EMAIL_ALREADY_EXISTS", "ERR_NO_PERMISSION"]);

/** Companies (super only): a form above a table; clicking a row edits it; row colours warn of due dates. */
export function CompaniesTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const companies = useQuery({ queryKey: companyKeys.all, queryFn: fetchCompanies });
  const plans = useQuery({ queryKey: planKeys.all, queryFn: fetchPlans });
  const [editing, setEditing] = useState<Company | null>(null);
  const [confirm, setConfirm] = useState(false);
  const [usersOpen, setUsersOpen] = useState(false);
  const { control, handleSubmit, reset, watch, setValue, setError, formState } = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: EMPTY,
  });

  useEffect(() => {
    if (companies.isError || plans.isError) toast.error(t("settings.crud.loadError"), { toastId: "companies-load" });
  }, [companies.isError, plans.isError, t]);

  function edit(c: Company) {
    setEditing(c);
    reset({
      name: c.name,
      email: c.email,
      phone: c.phone,
      planId: c.planId,
      status: c.status,
      campaignsEnabled: c.campaignsEnabled,
      dueDate: c.dueDate ?? "",
      recurrence: c.recurrence || "MENSAL",
      document: c.document,
      billingName: c.billingName,
      biUrl: c.biUrl,
      password: "",
    });
  }

  function clear() {
    setEditing(null);
    reset(EMPTY);
  }

  const failed = (err: unknown, fallback: string) =>
    toast.error(err instanceof ApiError && err.code && SPECIFIC.has(err.code) ? errorText(err) : t(fallback));

  const submit = handleSubmit(async (v) => {
    if (!editing && v.password.length < 5) {
      setError("password", { message: v.password ? MSG.tooShort : MSG.required });
      return;
    }
    if (editing && v.password && v.password.length < 5) {
      setError("password", { message: MSG.tooShort });
      return;
    }
    // the host list has an operator's part only the server knows: the form checks the URL's shape, the server the host
    const biShape = biUrlRefusal(v.biUrl, ["*"]);
    if (biShape && biShape !== "hostNotAllowed") {
      setError("biUrl", { message: t(`settings.companies.biUrlRefused.${biShape}`) });
      return;
    }
    await new Promise((r) => setTimeout(r, 500));
    const body = {
      name: v.name,
      email: v.email,
      phone: v.phone,
      planId: Number(v.planId),
      status: v.status,
      campaignsEnabled: v.campaignsEnabled,
      dueDate: validDueDate(v.dueDate),
      recurrence: v.recurrence as "MENSAL",
      document: v.document,
      billingName: v.billingName,
      biUrl: v.biUrl,
    };
    try {
      if (editing) await updateCompany(editing.id, v.password ? { ...body, password: v.password } : body);
      else await createCompany({ ...body, password: v.password });
      await queryClient.invalidateQueries({ queryKey: companyKeys.all });
      toast.success(t("settings.crud.success"));
      clear();
    } catch (err) {
      const biRefusal = err instanceof ApiError ? biRefusalOf(err.body.fields?.biUrl) : undefined;
      if (biRefusal) setError("biUrl", { message: t(`settings.companies.biUrlRefused.${biRefusal}`) });
      else failed(err, "settings.companies.saveError");
    }
  });

  async function remove() {
    if (!editing) return;
    try {
      await deleteCompany(editing.id);
      await queryClient.invalidateQueries({ queryKey: companyKeys.all });
      toast.success(t("settings.crud.success"));
      clear();
    } catch (err) {
      failed(err, "settings.crud.deleteError");
    }
  }

  const dueDate = watch("dueDate");
  const recurrence = watch("recurrence");
  const validDue = validDueDate(dueDate);
  const err = formState.errors;
  const recurrenceOptions = recurrence && recurrence !== "MENSAL" ? ["MENSAL", recurrence] : ["MENSAL"];
  return (
    <Box sx={{ display: "grid", gap: 2 }}>
      <Paper variant="outlined" component="form" onSubmit={submit} noValidate sx={{ p: 2 }} aria-label={t("settings.tabs.companies")}>
        <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr", lg: "repeat(4, 1fr)" }, gap: 2 }}>
          <FormTextField control={control} size="small" name="name" label={t("settings.companies.name")} required />
          <FormTextField control={control} size="small" name="email" label={t("settings.companies.email")} required />
          <FormTextField control={control} size="small" name="phone" label={t("settings.companies.phone")} />
          <Controller
            control={control}
            name="planId"
            render={({ field }) => (
              <TextField select size="small" label={t("settings.companies.plan")} value={field.value ?? ""} onChange={(e) => field.onChange(Number(e.target.value))} error={!!err.planId} helperText={formMessage(err.planId?.message)} required slotProps={{ select: { inputProps: { "data-testid": "company-plan" } } }}>
                {(plans.data ?? []).map((p) => (
                  <MenuItem key={p.id} value={p.id}>
                    {p.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <Controller
            control={control}
            name="status"
            render={({ field }) => (
              <TextField select size="small" label={t("settings.companies.status")} value={field.value ? "true" : "false"} onChange={(e) => field.onChange(e.target.value === "true")}>
                <MenuItem value="true">{t("settings.crud.yes")}</MenuItem>
                <MenuItem value="false">{t("settings.crud.no")}</MenuItem>
              </TextField>
            )}
          />
          <Controller
            control={control}
            name="campaignsEnabled"
            render={({ field }) => (
              <TextField select size="small" label={t("settings.companies.campaigns")} value={field.value ? "true" : "false"} onChange={(e) => field.onChange(e.target.value === "true")}>
                <MenuItem value="true">{t("settings.crud.enabled")}</MenuItem>
                <MenuItem value="false">{t("settings.crud.disabled")}</MenuItem>
              </TextField>
            )}
          />
          <Controller
            control={control}
            name="dueDate"
            render={({ field, fieldState }) => (
              <DateField
                size="small"
                name="dueDate"
                label={t("settings.companies.dueDate")}
                value={field.value ?? ""}
                onChange={field.onChange}
                error={!!fieldState.error}
                helperText={formMessage(fieldState.error?.message)}
              />
            )}
          />
          <Controller
            control={control}
            name="recurrence"
            render={({ field }) => (
              <TextField select size="small" label={t("settings.companies.recurrence")} value={field.value} onChange={field.onChange}>
                {recurrenceOptions.map((r) => (
                  <MenuItem key={r} value={r}>
                    {t(`settings.companies.recurrences.${r}`)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <FormTextField control={control} size="small" name="document" label={t("settings.companies.document")} />
          <FormTextField control={control} size="small" name="billingName" label={t("settings.companies.billingName")} />
          <FormTextField control={control} size="small" name="biUrl" label={t("settings.companies.biUrl")} />
          <FormTextField
            control={control}
            size="small"
            type="password"
            autoComplete="new-password"
            name="password"
            label={t("settings.companies.password")}
            helperText={t(editing ? "settings.companies.passwordHelpEdit" : "settings.companies.passwordHelpCreate")}
            required={!editing}
          />
        </Box>
        <Box sx={{ display: "flex", gap: 1, justifyContent: "flex-end", mt: 2, flexWrap: "wrap" }}>
          <Button variant="outlined" onClick={clear}>
            {t("settings.crud.clear")}
          </Button>
          {editing && (
            <Button variant="outlined" color="error" onClick={() => setConfirm(true)}>
              {t("settings.crud.delete")}
            </Button>
          )}
          <Button
            variant="outlined"
            color="secondary"
            title={t("settings.crud.addPeriodHint")}
            disabled={!validDue}
            onClick={() => validDue && setValue("dueDate", addPeriod(validDue, recurrence), { shouldDirty: true })}
          >
            {t("settings.crud.addPeriod")}
          </Button>
          {editing && (
            <Button variant="outlined" onClick={() => setUsersOpen(true)}>
              {t("settings.companyUsers.open")}
            </Button>
          )}
          <Button type="submit" variant="contained" disabled={formState.isSubmitting}>
            {t("settings.crud.save")}
          </Button>
        </Box>
      </Paper>
      <Box sx={{ display: "flex", gap: 2, flexWrap: "wrap" }}>
        {(["yellow", "orange", "red"] as const).map((tone) => (
          <Box key={tone} sx={{ display: "flex", alignItems: "center", gap: 0.75 }}>
            <Box sx={{ width: 14, height: 14, borderRadius: 0.5, bgcolor: DUE_TONE_COLORS[tone] }} />
            <Typography variant="caption" color="text.secondary">
              {t(`settings.companies.legend.${tone}`)}
            </Typography>
          </Box>
        ))}
      </Box>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label={t("settings.tabs.companies")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("settings.companies.name")}</TableCell>
              <TableCell>{t("settings.companies.email")}</TableCell>
              <TableCell>{t("settings.companies.phone")}</TableCell>
              <TableCell>{t("settings.companies.plan")}</TableCell>
              <TableCell>{t("settings.companies.campaigns")}</TableCell>
              <TableCell>{t("settings.companies.status")}</TableCell>
              <TableCell>{t("settings.companies.createdAt")}</TableCell>
              <TableCell>{t("settings.companies.dueDate")}</TableCell>
              <TableCell>{t("settings.companies.recurrence")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(companies.data ?? []).map((c) => {
              const tone = dueTone(c.dueDate);
              return (
                <TableRow
                  key={c.id}
                  hover
                  selected={editing?.id === c.id}
                  onClick={() => edit(c)}
                  data-testid="company-row"
                  data-tone={tone ?? "none"}
                  sx={{ cursor: "pointer", bgcolor: tone ? (theme) => (theme.palette.mode === "dark" ? alpha(DUE_TONE_COLORS[tone], 0.35) : DUE_TONE_COLORS[tone]) : undefined }}
                >
                  <TableCell>{c.name}</TableCell>
                  <TableCell>{c.email}</TableCell>
                  <TableCell>{c.phone || "-"}</TableCell>
                  <TableCell>{c.plan?.name ?? "-"}</TableCell>
                  <TableCell>{c.campaignsEnabled ? t("settings.crud.enabled") : t("settings.crud.disabled")}</TableCell>
                  <TableCell>{c.status ? t("settings.crud.yes") : t("settings.crud.no")}</TableCell>
                  <TableCell>{formatDate(c.createdAt)}</TableCell>
                  <TableCell>{formatDate(c.dueDate)}</TableCell>
                  <TableCell>{t(`settings.companies.recurrences.${c.recurrence}`, { defaultValue: c.recurrence })}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
      <CompanyUsersDialog company={editing} open={usersOpen && editing !== null} onClose={() => setUsersOpen(false)} />
      <ConfirmationDialog open={confirm} title={t("settings.crud.deleteTitle")} onClose={() => setConfirm(false)} onConfirm={() => void remove()}>
        {t("settings.crud.deleteConfirm")}
      </ConfirmationDialog>
    </Box>
  );
}
