import { useEffect } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Dialog, DialogContent, DialogTitle, MenuItem, Stack } from "@mui/material";
import { useTranslation } from "react-i18next";
import { OPT_OUT_CHANNELS, optOutInput, type OptOut } from "@atende/shared";
import type { z } from "zod";
import { DialogFormActions } from "../../../components/dialog-form-actions";
import { FormTextField } from "../../../components/form-text-field";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { addOptOut } from "../api/opt-outs";

type FormIn = z.input<typeof optOutInput>;
type FormOut = z.output<typeof optOutInput>;

interface Props {
  open: boolean;
  onClose(): void;
  onSaved(optOut: OptOut): void;
}

/** Adds one e-mail address or phone number to the list (the shared schema; the server stores the number's E.164 digits). */
export function OptOutDialog({ open, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const { control, handleSubmit, reset, formState } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(optOutInput),
    defaultValues: { channel: "sms", address: "" },
  });
  const channel = useWatch({ control, name: "channel" });

  useEffect(() => {
    if (open) reset({ channel: "sms", address: "" });
  }, [open, reset]);

  const submit = handleSubmit(async (values) => {
    try {
      const saved = await addOptOut(values);
      toast.success(t("optOuts.added"));
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle>{t("optOuts.dialog.title")}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <FormTextField control={control} name="channel" select label={t("optOuts.dialog.channel")} fullWidth>
              {OPT_OUT_CHANNELS.map((c) => (
                <MenuItem key={c} value={c}>
                  {t(`optOuts.channels.${c}`)}
                </MenuItem>
              ))}
            </FormTextField>
            <FormTextField
              control={control}
              name="address"
              label={channel === "email" ? t("optOuts.dialog.email") : t("optOuts.dialog.phone")}
              helperText={channel === "email" ? undefined : t("optOuts.dialog.phoneHelp")}
              type={channel === "email" ? "email" : "tel"}
              autoFocus
              required
              fullWidth
            />
          </Stack>
        </DialogContent>
        <DialogFormActions onCancel={onClose} submitting={formState.isSubmitting} />
      </form>
    </Dialog>
  );
}
