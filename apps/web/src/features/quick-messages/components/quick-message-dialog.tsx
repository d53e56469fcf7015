import { useEffect, useRef, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, Chip, Dialog, DialogContent, DialogTitle, FormControlLabel, Switch } from "@mui/material";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { LIMITS, quickMessageInput, type QuickMessage } from "@atende/shared";
import type { z } from "zod";
import { FormTextField } from "../../../components/form-text-field";
import { toastError } from "../../../lib/toast-error";
import { createQuickMessage, removeQuickMessageMedia, updateQuickMessage, uploadQuickMessageMedia } from "../api/quick-messages";
import { DialogFormActions } from "../../../components/dialog-form-actions";

type FormIn = z.input<typeof quickMessageInput>;
type FormOut = z.output<typeof quickMessageInput>;

interface Props {
  open: boolean;
  record: QuickMessage | null;
  onClose(): void;
  onSaved(record: QuickMessage): void;
}

/** Quick reply dialog: shortcode (required), message, general or personal, optional attachment. */
export function QuickMessageDialog({ open, record, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [mediaName, setMediaName] = useState<string | null>(null);
  const { control, handleSubmit, reset, formState } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(quickMessageInput),
    defaultValues: { shortcode: "", message: "", geral: true },
  });

  useEffect(() => {
    if (!open) return;
    setFile(null);
    setMediaName(record?.mediaName ?? null);
    reset(record ? { shortcode: record.shortcode, message: record.message, geral: record.geral } : { shortcode: "", message: "", geral: true });
  }, [open, record, reset]);

  async function removeAttachment() {
    if (file) {
      setFile(null);
      return;
    }
    if (!record) return;
    try {
      onSaved(await removeQuickMessageMedia(record.id));
      setMediaName(null);
    } catch (err) {
      toastError(err);
    }
  }

  const submit = handleSubmit(async (values) => {
    try {
      let saved = record ? await updateQuickMessage(record.id, values) : await createQuickMessage(values);
      if (file) saved = await uploadQuickMessageMedia(saved.id, file);
      toast.success(t("quickMessages.saved"));
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    }
  });

  const attachment = file?.name ?? mediaName;
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle>{record ? t("quickMessages.dialog.editTitle") : t("quickMessages.dialog.addTitle")}</DialogTitle>
        <DialogContent dividers sx={{ display: "grid", gap: 2 }}>
          <FormTextField
            control={control}
            name="shortcode"
            label={t("quickMessages.dialog.shortcode")}
            helperText={t("quickMessages.dialog.shortcodeHelp")}
            required
            autoFocus
            slotProps={{ input: { startAdornment: <Box component="span" sx={{ color: "text.secondary", mr: 0.5 }}>/</Box> } }}
          />
          <FormTextField control={control} name="message" label={t("quickMessages.dialog.message")} multiline minRows={5} />
          <Controller
            control={control}
            name="geral"
            render={({ field }) => (
              <FormControlLabel
                control={<Switch checked={field.value ?? true} onChange={(e) => field.onChange(e.target.checked)} name="geral" />}
                label={field.value === false ? t("quickMessages.dialog.personal") : t("quickMessages.dialog.geral")}
              />
            )}
          />
          <Box sx={{ display: "flex", gap: 1.5, alignItems: "center", flexWrap: "wrap" }}>
            <Button variant="outlined" startIcon={<AttachFileIcon />} onClick={() => fileInput.current?.click()}>
              {t("quickMessages.dialog.attach")}
            </Button>
            <input
              ref={fileInput}
              type="file"
              hidden
              data-testid="quick-message-file"
              onChange={(e) => {
                const f = e.target.files?.[0];
                e.target.value = "";
                if (!f) return;
                if (f.size > LIMITS.attachmentMaxBytes) toast.error(t("backendErrors.ERR_PAYLOAD_TOO_LARGE"));
                else setFile(f);
              }}
            />
            {attachment && <Chip label={attachment} onDelete={() => void removeAttachment()} title={t("quickMessages.dialog.removeAttachment")} />}
          </Box>
        </DialogContent>
        <DialogFormActions onCancel={onClose} submitting={formState.isSubmitting} />
      </form>
    </Dialog>
  );
}
