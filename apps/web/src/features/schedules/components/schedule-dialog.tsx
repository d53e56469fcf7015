import { useEffect, useRef, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { Alert, Box, Button, Chip, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField, Tooltip, Typography } from "@mui/material";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import { addHours } from "date-fns";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { z } from "zod";
import { dateToZonedLocal, LOCAL_DATE_TIME, SCHEDULE_MEDIA_EXTENSIONS, SCHEDULE_VARIABLES, scheduleInput, type ContactRef, type Schedule } from "@atende/shared";
import { DateTimeField } from "../../../components/date-time-field";
import { formMessage } from "../../../components/form-message";
import { FormTextField } from "../../../components/form-text-field";
import { toastError } from "../../../lib/toast-error";
import { useCompanyTimeZone } from "../../../lib/time-zone";
import { createSchedule, fetchConnections, removeScheduleMedia, scheduleKeys, updateSchedule, uploadScheduleMedia } from "../api/schedules";
import { ContactPicker } from "./contact-picker";

const formSchema = z.object({
  body: scheduleInput.shape.body,
  contact: z.custom<ContactRef | null>().refine((c) => c !== null && c !== undefined, "Obrigatório"),
  sendAt: z.string().min(1, "Obrigatório").regex(LOCAL_DATE_TIME, "Invalid date"),
  whatsappId: z.number().nullable(),
});
type FormValues = z.input<typeof formSchema>;

/** Now + 1 h, as the company's wall clock shows it. */
const defaultSendAt = (timeZone: string) => dateToZonedLocal(addHours(new Date(), 1), timeZone);

interface Props {
  open: boolean;
  schedule: Schedule | null;
  /** Preselected contact for a new schedule (the ?contactId= link). */
  initialContact?: ContactRef | null;
  onClose(): void;
  onSaved(schedule: Schedule): void;
}

function validImage(file: File): boolean {
  const ext = file.name.split(".").pop()?.toLowerCase() ?? "";
  return (SCHEDULE_MEDIA_EXTENSIONS as readonly string[]).includes(ext);
}

/** Schedule dialog: contact, message with variables, send time (default now + 1 h), optional image; a sent one is read-only. */
export function ScheduleDialog({ open, schedule, initialContact, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const bodyRef = useRef<HTMLTextAreaElement | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [mediaName, setMediaName] = useState<string | null>(null);
  const timeZone = useCompanyTimeZone();
  const connections = useQuery({ queryKey: scheduleKeys.connections, queryFn: fetchConnections, enabled: open, retry: false });
  const { control, handleSubmit, reset, getValues, setValue, formState } = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: { body: "", contact: null, sendAt: defaultSendAt(timeZone), whatsappId: null },
  });

  useEffect(() => {
    if (!open) return;
    setFile(null);
    setMediaName(schedule?.mediaName ?? null);
    reset(
      schedule
        ? { body: schedule.body, contact: schedule.contact, sendAt: dateToZonedLocal(new Date(schedule.sendAt), timeZone), whatsappId: schedule.whatsappId }
        : { body: "", contact: initialContact ?? null, sendAt: defaultSendAt(timeZone), whatsappId: null },
    );
  }, [open, schedule, initialContact, reset, timeZone]);

  const sent = schedule !== null && (schedule.status === "ENVIADA" || schedule.sentAt !== null);

  function insertVariable(name: string) {
    const token = `{{${name}}}`;
    const el = bodyRef.current;
    const current = getValues("body") ?? "";
    const start = el?.selectionStart ?? current.length;
    const end = el?.selectionEnd ?? current.length;
    setValue("body", current.slice(0, start) + token + current.slice(end), { shouldDirty: true });
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + token.length, start + token.length);
    });
  }

  function chooseFile(f: File | undefined) {
    if (!f) return;
    if (!validImage(f)) {
      toast.error(t("schedules.dialog.invalidFile"));
      return;
    }
    setFile(f);
  }

  async function removeAttachment() {
    if (file) {
      setFile(null);
      return;
    }
    if (schedule && mediaName) {
      try {
        onSaved(await removeScheduleMedia(schedule.id));
        setMediaName(null);
      } catch (err) {
        toastError(err);
      }
    }
  }

  const submit = handleSubmit(async (v) => {
    if (sent || !v.contact) return;
    const body = { body: v.body ?? "", contactId: v.contact.id, sendAt: v.sendAt, whatsappId: v.whatsappId };
    try {
      let saved = schedule ? await updateSchedule(schedule.id, body) : await createSchedule(body);
      if (file) saved = await uploadScheduleMedia(saved.id, file);
      toast.success(t("schedules.saved"));
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    }
  });

  const err = formState.errors;
  const statusLabel = schedule ? t(`schedules.status.${schedule.status}`) : null;
  const attachmentName = file?.name ?? mediaName;
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth scroll="paper">
      <form onSubmit={submit} noValidate>
        <DialogTitle sx={{ display: "flex", alignItems: "center", gap: 1 }}>
          {schedule ? t("schedules.dialog.editTitle") : t("schedules.dialog.addTitle")}
          {statusLabel && <Chip size="small" label={statusLabel} color={schedule?.status === "ERRO" ? "error" : schedule?.status === "ENVIADA" ? "success" : "default"} data-testid="schedule-status" />}
        </DialogTitle>
        <DialogContent dividers sx={{ display: "grid", gap: 2 }}>
          {sent && <Alert severity="success">{t("schedules.dialog.alreadySent")}</Alert>}
          {schedule?.status === "ERRO" && schedule.error && <Alert severity="error">{t("schedules.dialog.error", { error: schedule.error })}</Alert>}
          <Controller
            control={control}
            name="contact"
            render={({ field }) => <ContactPicker value={field.value ?? null} onChange={field.onChange} error={formMessage(err.contact?.message)} disabled={sent} />}
          />
          <Box>
            <FormTextField
              control={control}
              name="body"
              label={t("schedules.dialog.body")}
              inputRef={bodyRef}
              multiline
              minRows={5}
              fullWidth
              required
              disabled={sent}
            />
            <Box sx={{ display: "flex", gap: 1, alignItems: "center", flexWrap: "wrap", mt: 1 }}>
              <Typography variant="caption" color="text.secondary">
                {t("schedules.dialog.variables")}:
              </Typography>
              {SCHEDULE_VARIABLES.map((v) => (
                <Tooltip key={v} title={t(`schedules.dialog.variableNames.${v}`)}>
                  <Chip size="small" variant="outlined" label={`{{${v}}}`} onClick={() => insertVariable(v)} disabled={sent} />
                </Tooltip>
              ))}
            </Box>
          </Box>
          <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" }, gap: 2 }}>
            <Controller
              control={control}
              name="sendAt"
              render={({ field }) => (
                <DateTimeField
                  label={t("schedules.dialog.sendAt")}
                  name="sendAt"
                  value={field.value ?? ""}
                  onChange={field.onChange}
                  required
                  disabled={sent}
                  error={!!err.sendAt}
                  helperText={formMessage(err.sendAt?.message)}
                />
              )}
            />
            <Controller
              control={control}
              name="whatsappId"
              render={({ field }) => (
                <TextField
                  select
                  label={t("schedules.dialog.connection")}
                  value={field.value ?? ""}
                  onChange={(e) => field.onChange(e.target.value === "" ? null : Number(e.target.value))}
                  disabled={sent}
                  slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
                >
                  <MenuItem value="">{t("schedules.dialog.defaultConnection")}</MenuItem>
                  {(connections.data ?? []).map((c) => (
                    <MenuItem key={c.id} value={c.id}>
                      {c.name}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
          </Box>
          <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, flexWrap: "wrap" }}>
            <Button variant="outlined" startIcon={<AttachFileIcon />} onClick={() => fileInput.current?.click()} disabled={sent}>
              {t("schedules.dialog.attach")}
            </Button>
            <input
              ref={fileInput}
              type="file"
              hidden
              accept=".png,.jpg,.jpeg,image/png,image/jpeg"
              data-testid="schedule-file"
              onChange={(e) => {
                chooseFile(e.target.files?.[0]);
                e.target.value = "";
              }}
            />
            {attachmentName ? (
              <Chip label={attachmentName} onDelete={sent ? undefined : () => void removeAttachment()} deleteIcon={<span aria-label={t("schedules.dialog.removeAttachment")}>✕</span>} />
            ) : (
              <Typography variant="caption" color="text.secondary">
                {t("schedules.dialog.attachHint")}
              </Typography>
            )}
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={formState.isSubmitting}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" variant="contained" disabled={sent || formState.isSubmitting} startIcon={formState.isSubmitting ? <CircularProgress size={16} /> : undefined}>
            {t("common.save")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
