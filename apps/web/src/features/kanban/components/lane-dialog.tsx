import { useEffect } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Dialog, DialogContent, DialogTitle } from "@mui/material";
import { useTranslation } from "react-i18next";
import { LIMITS, tagInput, type Tag } from "@atende/shared";
import type { z } from "zod";
import { ColorField } from "../../../components/color-field";
import { COLOR_PALETTE } from "../../../components/color-palette";
import { formMessage } from "../../../components/form-message";
import { FormTextField } from "../../../components/form-text-field";
import { toastError } from "../../../lib/toast-error";
import { createLane } from "../api/kanban";
import { DialogFormActions } from "../../../components/dialog-form-actions";

const schema = tagInput.pick({ name: true, color: true });
type FormIn = z.input<typeof schema>;
type FormOut = z.output<typeof schema>;

const randomColor = () => COLOR_PALETTE[Math.floor(Math.random() * COLOR_PALETTE.length)] ?? "#5C59A0";

/** A new kanban column: a tag (name at least 3 characters, colour from the palette) created with kanban 1. */
export function LaneDialog({ open, onClose, onCreated }: { open: boolean; onClose(): void; onCreated(tag: Tag): void }) {
  const { t } = useTranslation();
  const { control, handleSubmit, reset, formState } = useForm<FormIn, unknown, FormOut>({ resolver: zodResolver(schema), defaultValues: { name: "", color: "" } });

  useEffect(() => {
    if (open) reset({ name: "", color: randomColor() });
  }, [open, reset]);

  const submit = handleSubmit(async (v) => {
    try {
      onCreated(await createLane({ name: v.name, color: v.color }));
      onClose();
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="lane-dialog-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="lane-dialog-title">{t("kanban.newLane")}</DialogTitle>
        <DialogContent dividers>
          <Box sx={{ display: "grid", gap: 2 }}>
            <FormTextField control={control} name="name" label={t("kanban.laneName")} autoFocus required slotProps={{ htmlInput: { maxLength: LIMITS.tagNameMax } }} />
            <Controller
              control={control}
              name="color"
              render={({ field, fieldState }) => (
                <ColorField
                  label={t("kanban.laneColor")}
                  pickerTitle={t("kanban.pickColor")}
                  name={field.name}
                  value={field.value ?? ""}
                  onChange={field.onChange}
                  error={!!fieldState.error}
                  helperText={formMessage(fieldState.error?.message)}
                />
              )}
            />
          </Box>
        </DialogContent>
        <DialogFormActions onCancel={onClose} submitting={formState.isSubmitting} />
      </form>
    </Dialog>
  );
}
