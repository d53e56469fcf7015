import { useEffect, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Box, Dialog, DialogContent, DialogTitle, MenuItem, Tab, Tabs, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { canVisit, DEFAULT_QUEUE_SCHEDULES, queueInput, type Queue, type QueueScheduleEntry } from "@atende/shared";
import { useCurrentUser } from "../../../lib/session";
import type { z } from "zod";
import { ColorField } from "../../../components/color-field";
import { firstFreeColor } from "../../../components/color-palette";
import { formMessage } from "../../../components/form-message";
import { FormTextField } from "../../../components/form-text-field";
import { WeeklyHoursEditor, weeklyHoursValid } from "../../../components/weekly-hours-editor";
import { ApiError } from "../../../lib/api";
import { toastError } from "../../../lib/toast-error";
import { createQueue, fetchIntegrations, fetchPrompts, queueKeys, updateQueue } from "../api/queues";
import { DialogFormActions } from "../../../components/dialog-form-actions";

const formSchema = queueInput.omit({ schedules: true });
type FormIn = z.input<typeof formSchema>;
type FormOut = z.output<typeof formSchema>;

const EMPTY: FormIn = { name: "", color: "", greetingMessage: "", outOfHoursMessage: "", orderQueue: null, promptId: null, integrationId: null };

interface Props {
  open: boolean;
  queue: Queue | null;
  onClose(): void;
  onSaved(queue: Queue): void;
}

const toId = (v: unknown) => (v === "" || v === null || v === undefined ? null : Number(v));

/** Queue dialog: data tab (name 2-50, colour 3-9, messages, order, prompt, integration) and opening hours. */
export function QueueDialog({ open, queue, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [tab, setTab] = useState(0);
  const [schedules, setSchedules] = useState<QueueScheduleEntry[]>(DEFAULT_QUEUE_SCHEDULES);
  const queryClient = useQueryClient();
  const { control, handleSubmit, reset, setError, formState } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(formSchema),
    defaultValues: EMPTY,
  });
  // Prompts and integrations exist only when those features are installed and allowed: hide on failure.
  // the choices exist for those who may use AI prompts and integrations (their pages' gates); others never ask
  const me = useCurrentUser();
  const mayPrompt = canVisit(me, me.company.plan, "/prompts");
  const mayIntegrate = canVisit(me, me.company.plan, "/queue-integration");
  const prompts = useQuery({ queryKey: queueKeys.prompts, queryFn: fetchPrompts, enabled: open && mayPrompt, retry: false, staleTime: 60_000 });
  const integrations = useQuery({ queryKey: queueKeys.integrations, queryFn: fetchIntegrations, enabled: open && mayIntegrate, retry: false, staleTime: 60_000 });

  useEffect(() => {
    if (!open) return;
    setTab(0);
    reset(
      queue
        ? {
            name: queue.name,
            color: queue.color,
            greetingMessage: queue.greetingMessage,
            outOfHoursMessage: queue.outOfHoursMessage,
            orderQueue: queue.orderQueue,
            promptId: queue.promptId,
            integrationId: queue.integrationId,
          }
        : // a new queue starts with a colour of its own: the first palette colour the company's queues leave free
          { ...EMPTY, color: firstFreeColor((queryClient.getQueryData<Queue[]>(queueKeys.all) ?? []).map((q) => q.color)) },
    );
    setSchedules(queue && queue.schedules.length > 0 ? queue.schedules : DEFAULT_QUEUE_SCHEDULES);
  }, [open, queue, reset, queryClient]);

  const hoursOk = weeklyHoursValid(schedules);
  const submit = handleSubmit(
    async (values) => {
      if (!hoursOk) {
        setTab(1);
        return;
      }
      try {
        const body = { ...values, schedules };
        const saved = queue ? await updateQueue(queue.id, body) : await createQueue(body);
        toast.success(t("queues.saved"));
        onSaved(saved);
        onClose();
      } catch (err) {
        if (err instanceof ApiError && err.code === "ERR_QUEUE_COLOR_ALREADY_EXISTS") {
          setTab(0);
          setError("color", { message: "backendErrors.ERR_QUEUE_COLOR_ALREADY_EXISTS" });
        }
        toastError(err);
      }
    },
    () => setTab(0),
  );

  const err = formState.errors;
  const promptOptions = prompts.isSuccess ? prompts.data : [];
  const integrationOptions = integrations.isSuccess ? integrations.data : [];
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth scroll="paper">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{queue ? t("queues.dialog.editTitle") : t("queues.dialog.addTitle")}</DialogTitle>
        <Tabs value={tab} onChange={(_, v: number) => setTab(v)} sx={{ px: 3, borderBottom: 1, borderColor: "divider" }}>
          <Tab label={t("queues.dialog.tabData")} />
          <Tab label={t("queues.dialog.tabHours")} />
        </Tabs>
        <DialogContent sx={{ minHeight: 420 }}>
          <Box hidden={tab !== 0} sx={{ display: tab === 0 ? "grid" : "none", gridTemplateColumns: { xs: "1fr", sm: "2fr 1fr 1fr" }, gap: 2, pt: 1 }}>
            <FormTextField control={control} name="name" label={t("queues.dialog.name")} required autoFocus />
            <Controller
              control={control}
              name="color"
              render={({ field }) => (
                <ColorField
                  label={t("queues.dialog.color")}
                  pickerTitle={t("queues.dialog.pickColor")}
                  value={field.value ?? ""}
                  onChange={field.onChange}
                  name={field.name}
                  error={!!err.color}
                  helperText={formMessage(err.color?.message)}
                  required
                />
              )}
            />
            <FormTextField control={control} name="orderQueue" label={t("queues.dialog.order")} type="number" parse={(v) => (v === "" ? null : Number(v))} />
            {promptOptions.length > 0 && (
              <Controller
                control={control}
                name="promptId"
                render={({ field }) => (
                  <TextField select label={t("queues.dialog.prompt")} value={field.value ?? ""} onChange={(e) => field.onChange(toId(e.target.value))} sx={{ gridColumn: { sm: "span 3" } }}>
                    <MenuItem value="">{t("queues.dialog.none")}</MenuItem>
                    {promptOptions.map((p) => (
                      <MenuItem key={p.id} value={p.id}>
                        {p.name}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            )}
            {integrationOptions.length > 0 && (
              <Controller
                control={control}
                name="integrationId"
                render={({ field }) => (
                  <TextField select label={t("queues.dialog.integration")} value={field.value ?? ""} onChange={(e) => field.onChange(toId(e.target.value))} sx={{ gridColumn: { sm: "span 3" } }}>
                    <MenuItem value="">{t("queues.dialog.none")}</MenuItem>
                    {integrationOptions.map((p) => (
                      <MenuItem key={p.id} value={p.id}>
                        {p.name}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            )}
            <FormTextField control={control} name="greetingMessage" label={t("queues.dialog.greeting")} multiline minRows={4} sx={{ gridColumn: { sm: "span 3" } }} />
            <FormTextField control={control} name="outOfHoursMessage" label={t("queues.dialog.outOfHours")} multiline minRows={4} sx={{ gridColumn: { sm: "span 3" } }} />
          </Box>
          <Box sx={{ display: tab === 1 ? "block" : "none", pt: 1 }}>
            <Alert severity="info" sx={{ mb: 2 }}>
              {t("queues.dialog.hoursHint")}
            </Alert>
            {!hoursOk && (
              <Alert severity="error" sx={{ mb: 2 }}>
                {t("queues.dialog.invalidHours")}
              </Alert>
            )}
            <WeeklyHoursEditor value={schedules} onChange={setSchedules} startLabel={t("queues.dialog.start")} endLabel={t("queues.dialog.end")} />
          </Box>
        </DialogContent>
        <DialogFormActions onCancel={onClose} submitting={formState.isSubmitting} />
      </form>
    </Dialog>
  );
}
