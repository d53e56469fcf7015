import { useEffect } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Dialog, DialogContent, DialogTitle, MenuItem, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import { smsTemplateInput, type SmsTemplate } from "@atende/shared";
import type { z } from "zod";
import { FormTextField } from "../../../components/form-text-field";
import { DialogFormActions } from "../../../components/dialog-form-actions";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { createSmsTemplate, updateSmsTemplate } from "../api/message-templates";
import { SmsSegmentsHint } from "./sms-segments-hint";

type FormIn = z.input<typeof smsTemplateInput>;
type FormOut = z.output<typeof smsTemplateInput>;

interface Props {
  open: boolean;
  template: SmsTemplate | null;
  onClose(): void;
  onSaved(template: SmsTemplate): void;
}

/** Add or edit an SMS template: title 2-256, content 2-1024 with {{variables}} (the shared schema). */
export function SmsTemplateDialog({ open, template, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const { control, handleSubmit, reset, formState } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(smsTemplateInput),
    defaultValues: { title: "", content: "" },
  });
  const content = useWatch({ control, name: "content" }) ?? "";

  useEffect(() => {
    if (open) reset({ title: template?.title ?? "", content: template?.content ?? "" });
  }, [open, template, reset]);

  const submit = handleSubmit(async (values) => {
    try {
      const saved = template ? await updateSmsTemplate(template.id, values) : await createSmsTemplate(values);
      toast.success(t("messageTemplates.saved"));
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle>{template ? t("messageTemplates.sms.editTitle") : t("messageTemplates.sms.addTitle")}</DialogTitle>
        <DialogContent dividers sx={{ display: "grid", gap: 2 }}>
          <TextField select label={t("campaignTemplates.view.type")} value="sms" disabled fullWidth size="small">
            <MenuItem value="sms">SMS</MenuItem>
          </TextField>
          <FormTextField control={control} name="title" label={t("messageTemplates.title")} autoFocus required fullWidth />
          <FormTextField control={control} name="content" label={t("messageTemplates.sms.content")} required fullWidth multiline minRows={4} />
          <SmsSegmentsHint content={String(content)} />
        </DialogContent>
        <DialogFormActions onCancel={onClose} submitting={formState.isSubmitting} />
      </form>
    </Dialog>
  );
}
