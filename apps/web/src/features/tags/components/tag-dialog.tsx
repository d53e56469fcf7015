import { useEffect } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Checkbox, Dialog, DialogContent, DialogTitle, FormControlLabel } from "@mui/material";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { isAdmin, LIMITS, tagInput, type Tag } from "@atende/shared";
import type { z } from "zod";
import { ColorField } from "../../../components/color-field";
import { COLOR_PALETTE } from "../../../components/color-palette";
import { formMessage } from "../../../components/form-message";
import { FormTextField } from "../../../components/form-text-field";
import { toastError } from "../../../lib/toast-error";
import { useCurrentUser } from "../../../lib/session";
import { createTag, updateTag } from "../api/tags";
import { DialogFormActions } from "../../../components/dialog-form-actions";

type FormIn = z.input<typeof tagInput>;
type FormOut = z.output<typeof tagInput>;

interface Props {
  open: boolean;
  tag: Tag | null;
  onClose(): void;
  onSaved(tag: Tag): void;
}

const randomColor = () => COLOR_PALETTE[Math.floor(Math.random() * COLOR_PALETTE.length)] ?? "#5C59A0";

/** Tag dialog: name 3-255 ('Mensagem muito curta', 'Obrigatorio'), colour; kanban shown to admins, never editable here. */
export function TagDialog({ open, tag, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const { control, handleSubmit, reset, formState } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(tagInput),
    defaultValues: { name: "", color: "", kanban: 0 },
  });

  useEffect(() => {
    if (!open) return;
    reset(tag ? { name: tag.name, color: tag.color, kanban: tag.kanban } : { name: "", color: randomColor(), kanban: 0 });
  }, [open, tag, reset]);

  const submit = handleSubmit(async (values) => {
    try {
      const saved = tag ? await updateTag(tag.id, { name: values.name, color: values.color, kanban: tag.kanban, userId: user.id }) : await createTag({ name: values.name, color: values.color });
      toast.success(t("tags.saved"));
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    }
  });

  const err = formState.errors;
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle>{tag ? t("tags.dialog.editTitle") : t("tags.dialog.addTitle")}</DialogTitle>
        <DialogContent dividers>
          <Box sx={{ display: "grid", gap: 2 }}>
            <FormTextField
              control={control}
              name="name"
              label={t("tags.dialog.name")}
              autoFocus
              required
              slotProps={{ htmlInput: { maxLength: LIMITS.tagNameMax } }}
            />
            <Controller
              control={control}
              name="color"
              render={({ field }) => (
                <ColorField
                  label={t("tags.dialog.color")}
                  pickerTitle={t("tags.dialog.pickColor")}
                  name={field.name}
                  value={field.value ?? ""}
                  onChange={field.onChange}
                  error={!!err.color}
                  helperText={formMessage(err.color?.message)}
                />
              )}
            />
            {isAdmin(user) && (
              <FormControlLabel control={<Checkbox checked={(tag?.kanban ?? 0) === 1} disabled />} label={t("tags.dialog.kanban")} />
            )}
          </Box>
        </DialogContent>
        <DialogFormActions onCancel={onClose} submitting={formState.isSubmitting} />
      </form>
    </Dialog>
  );
}
