import { useEffect, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Box, Button, MenuItem, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { PLAN_FLAGS, formatMoney, planInput, type Plan, type PlanFlag } from "@atende/shared";
import type { z } from "zod";
import { ConfirmationDialog } from "../../../components/confirmation-dialog";
import { FormTextField } from "../../../components/form-text-field";
import { MoneyField } from "../../../components/money-field";
import { createPlan, deletePlan, fetchPlans, planKeys, updatePlan } from "../api/plans";
import { logFailure } from "../../../lib/log-failure";

type FormIn = z.input<typeof planInput>;
type FormOut = z.output<typeof planInput>;

/** Plan defaults (§9): limits 0, value 0, every feature on. */
const EMPTY: FormIn = {
  name: "",
  users: 0,
  connections: 0,
  queues: 0,
  value: 0,
  ...(Object.fromEntries(PLAN_FLAGS.map((f) => [f, true])) as Record<PlanFlag, boolean>),
};

/** Plans (super only): limits, price and the seven feature flags. */
export function PlansTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const plans = useQuery({ queryKey: planKeys.all, queryFn: fetchPlans });
  const [editing, setEditing] = useState<Plan | null>(null);
  const [confirm, setConfirm] = useState(false);
  const { control, handleSubmit, reset, formState } = useForm<FormIn, unknown, FormOut>({ resolver: zodResolver(planInput), defaultValues: EMPTY });

  useEffect(() => {
    if (plans.isError) toast.error(t("settings.crud.loadError"), { toastId: "plans-load" });
  }, [plans.isError, t]);

  function edit(p: Plan) {
    setEditing(p);
    reset({ name: p.name, users: p.users, connections: p.connections, queues: p.queues, value: p.value, ...Object.fromEntries(PLAN_FLAGS.map((f) => [f, p[f]])) });
  }
  function clear() {
    setEditing(null);
    reset(EMPTY);
  }

  const submit = handleSubmit(async (values) => {
    await new Promise((r) => setTimeout(r, 500));
    try {
      if (editing) await updatePlan(editing.id, values);
      else await createPlan(values);
      await queryClient.invalidateQueries({ queryKey: planKeys.all });
      toast.success(t("settings.crud.success"));
      clear();
    } catch (err) {
      logFailure("saving a plan failed", err, { planId: editing?.id });
      toast.error(t("settings.plans.saveError"));
    }
  });

  async function remove() {
    if (!editing) return;
    try {
      await deletePlan(editing.id);
      await queryClient.invalidateQueries({ queryKey: planKeys.all });
      toast.success(t("settings.crud.success"));
      clear();
    } catch (err) {
      logFailure("deleting a plan failed", err, { planId: editing.id });
      toast.error(t("settings.crud.deleteError"));
    }
  }

  const numberField = (name: "users" | "connections" | "queues") => (
    <FormTextField
      control={control}
      size="small"
      type="number"
      name={name}
      label={t(`settings.plans.${name}`)}
      helperText={t("settings.plans.limitsHelp")}
      slotProps={{ htmlInput: { min: 0, step: 1 } }}
    />
  );
  return (
    <Box sx={{ display: "grid", gap: 2 }}>
      <Paper variant="outlined" component="form" onSubmit={submit} noValidate sx={{ p: 2 }} aria-label={t("settings.tabs.plans")}>
        <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr", lg: "2fr 1fr 1fr 1fr 1fr" }, gap: 2 }}>
          <FormTextField control={control} size="small" name="name" label={t("settings.plans.name")} required />
          {numberField("users")}
          {numberField("connections")}
          {numberField("queues")}
          <MoneyField control={control} size="small" name="value" label={t("settings.plans.value")} />
        </Box>
        <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr", lg: "repeat(4, 1fr)" }, gap: 2, mt: 2 }}>
          {PLAN_FLAGS.map((flag) => (
            <Controller
              key={flag}
              control={control}
              name={flag}
              render={({ field }) => (
                <TextField select size="small" label={t(`settings.plans.flags.${flag}`)} value={field.value ? "true" : "false"} onChange={(e) => field.onChange(e.target.value === "true")}>
                  <MenuItem value="true">{t("settings.crud.enabled")}</MenuItem>
                  <MenuItem value="false">{t("settings.crud.disabled")}</MenuItem>
                </TextField>
              )}
            />
          ))}
        </Box>
        <Box sx={{ display: "flex", gap: 1, justifyContent: "flex-end", mt: 2 }}>
          <Button variant="outlined" onClick={clear}>
            {t("settings.crud.clear")}
          </Button>
          {editing && (
            <Button variant="outlined" color="error" onClick={() => setConfirm(true)}>
              {t("settings.crud.delete")}
            </Button>
          )}
          <Button type="submit" variant="contained" disabled={formState.isSubmitting}>
            {t("settings.crud.save")}
          </Button>
        </Box>
      </Paper>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label={t("settings.tabs.plans")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("settings.plans.name")}</TableCell>
              <TableCell align="center">{t("settings.plans.users")}</TableCell>
              <TableCell align="center">{t("settings.plans.connections")}</TableCell>
              <TableCell align="center">{t("settings.plans.queues")}</TableCell>
              <TableCell align="right">{t("settings.plans.value")}</TableCell>
              {PLAN_FLAGS.map((f) => (
                <TableCell key={f} align="center">
                  {t(`settings.plans.flags.${f}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {(plans.data ?? []).map((p) => (
              <TableRow key={p.id} hover selected={editing?.id === p.id} onClick={() => edit(p)} sx={{ cursor: "pointer" }} data-testid="plan-row">
                <TableCell>{p.name}</TableCell>
                <TableCell align="center">{p.users}</TableCell>
                <TableCell align="center">{p.connections}</TableCell>
                <TableCell align="center">{p.queues}</TableCell>
                <TableCell align="right">{formatMoney(p.value)}</TableCell>
                {PLAN_FLAGS.map((f) => (
                  <TableCell key={f} align="center">
                    {p[f] ? t("settings.crud.yes") : t("settings.crud.no")}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <ConfirmationDialog open={confirm} title={t("settings.crud.deleteTitle")} onClose={() => setConfirm(false)} onConfirm={() => void remove()}>
        {t("settings.crud.deleteConfirm")}
      </ConfirmationDialog>
    </Box>
  );
}
