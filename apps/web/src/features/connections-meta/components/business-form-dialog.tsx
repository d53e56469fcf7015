import { useEffect } from "react";
import { useForm, type Resolver } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Dialog, DialogContent, DialogTitle, Stack, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { businessInput, businessUpdateInput, type Business } from "@atende/shared";
import { formMessage } from "../../../components/form-message";
import { ApiError } from "../../../lib/api";
import { toastError } from "../../../lib/toast-error";
import { createBusiness, updateBusiness } from "../api/businesses";
import { DialogFormActions } from "../../../components/dialog-form-actions";

interface FormValues {
  name: string;
  wabaId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
}

const EMPTY: FormValues = { name: "", wabaId: "", accessToken: "", appSecret: "", verifyToken: "" };

interface Props {
  open: boolean;
  business: Business | null;
  onClose(): void;
  onSaved(business: Business): void;
}

/** Add or edit a WhatsApp Business Account; secrets are write-only (blank on edit keeps the stored one). */
export function BusinessFormDialog({ open, business, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const { register, handleSubmit, reset, setError, formState } = useForm<FormValues>({
    resolver: zodResolver(business ? businessUpdateInput : businessInput) as unknown as Resolver<FormValues>,
    defaultValues: EMPTY,
  });

  useEffect(() => {
    if (open) reset(business ? { ...EMPTY, name: business.name, wabaId: business.wabaId } : EMPTY);
  }, [open, business, reset]);

  const submit = handleSubmit(async (values) => {
    try {
      const saved = business ? await updateBusiness(business.id, values) : await createBusiness(values);
      toast.success(t("connectionsMeta.businesses.saved"));
      onSaved(saved);
      onClose();
    } catch (err) {
      const fields = err instanceof ApiError ? (err.body.fields as Record<string, string> | undefined) : undefined;
      for (const [k, v] of Object.entries(fields ?? {})) if (k in EMPTY) setError(k as keyof FormValues, { message: v });
      toastError(err);
    }
  });

  const err = formState.errors;
  const secretHelp = (field: keyof FormValues, has: boolean | undefined) => formMessage(err[field]?.message) ?? (business && has ? t("connectionsMeta.businesses.keepSecret") : undefined);
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="business-form-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="business-form-title">{business ? t("connectionsMeta.businesses.editTitle") : t("connectionsMeta.businesses.addTitle")}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField label={t("connectionsMeta.businesses.name")} {...register("name")} error={!!err.name} helperText={formMessage(err.name?.message)} required autoFocus />
            <TextField label={t("connectionsMeta.businesses.wabaId")} {...register("wabaId")} error={!!err.wabaId} helperText={formMessage(err.wabaId?.message)} required slotProps={{ htmlInput: { inputMode: "numeric" } }} />
            <TextField
              label={t("connectionsMeta.businesses.accessToken")}
              type="password"
              autoComplete="off"
              {...register("accessToken")}
              error={!!err.accessToken}
              helperText={secretHelp("accessToken", business?.hasAccessToken)}
              required={!business}
            />
            <TextField
              label={t("connectionsMeta.businesses.appSecret")}
              type="password"
              autoComplete="off"
              {...register("appSecret")}
              error={!!err.appSecret}
              helperText={secretHelp("appSecret", business?.hasAppSecret)}
              required={!business}
            />
            <TextField
              label={t("connectionsMeta.businesses.verifyToken")}
              type="password"
              autoComplete="off"
              {...register("verifyToken")}
              error={!!err.verifyToken}
              helperText={secretHelp("verifyToken", business?.hasVerifyToken)}
              required={!business}
            />
          </Stack>
        </DialogContent>
        <DialogFormActions onCancel={onClose} submitting={formState.isSubmitting} />
      </form>
    </Dialog>
  );
}
