import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Dialog, DialogContent, DialogTitle } from "@mui/material";
import { useTranslation } from "react-i18next";
import { costCenterInput, type CostCenter } from "@atende/shared";
import type { z } from "zod";
import { FormTextField } from "../../../components/form-text-field";
import { DialogFormActions } from "../../../components/dialog-form-actions";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { createCostCenter, updateCostCenter } from "../api/cost-centers";

type FormIn = z.input<typeof costCenterInput>;
type FormOut = z.output<typeof costCenterInput>;

interface Props {
  open: boolean;
  costCenter: CostCenter | null;
  onClose(): void;
  onSaved(costCenter: CostCenter): void;
}

/** Add or rename a cost center: name 1-64 ('Too Short!', 'Too Long!', 'Required'), the shared schema. */
export function CostCenterDialog({ open, costCenter, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const { control, handleSubmit, reset, formState } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(costCenterInput),
    defaultValues: { name: "" },
  });

  useEffect(() => {
    if (open) reset({ name: costCenter?.name ?? "" });
  }, [open, costCenter, reset]);

  const submit = handleSubmit(async (values) => {
    try {
      const saved = costCenter ? await updateCostCenter(costCenter.id, values) : await createCostCenter(values);
      toast.success(t("costCenters.saved"));
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle>{costCenter ? t("costCenters.dialog.editTitle") : t("costCenters.dialog.addTitle")}</DialogTitle>
        <DialogContent dividers>
          <FormTextField control={control} name="name" label={t("costCenters.dialog.name")} autoFocus required fullWidth />
        </DialogContent>
        <DialogFormActions onCancel={onClose} submitting={formState.isSubmitting} />
      </form>
    </Dialog>
  );
}
