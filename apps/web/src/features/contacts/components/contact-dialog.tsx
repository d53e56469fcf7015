import { useEffect } from "react";
import { useFieldArray, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, Dialog, DialogContent, DialogTitle, IconButton, Typography } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { contactInput, LIMITS, type Contact } from "@atende/shared";
import type { z } from "zod";
import { FormTextField } from "../../../components/form-text-field";
import { toastError } from "../../../lib/toast-error";
import { createContact, updateContact } from "../api/contacts";
import { DialogFormActions } from "../../../components/dialog-form-actions";

type FormIn = z.input<typeof contactInput>;
type FormOut = z.output<typeof contactInput>;

interface Props {
  open: boolean;
  contact: Contact | null;
  onClose(): void;
  onSaved(contact: Contact): void;
}

const EMPTY: FormIn = { name: "", number: "", email: "", document: "", extraInfo: [] };

/** Add or edit a contact: name 2-50, number 8-50 digits (non-digits stripped), valid e-mail; submit after 400 ms. */
export function ContactDialog({ open, contact, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const { control, handleSubmit, reset, formState } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(contactInput),
    defaultValues: EMPTY,
  });
  const extra = useFieldArray({ control, name: "extraInfo" });

  useEffect(() => {
    if (!open) return;
    reset(
      contact
        ? { name: contact.name, number: contact.number, email: contact.email, document: contact.document, extraInfo: contact.extraInfo }
        : EMPTY,
    );
  }, [open, contact, reset]);

  const submit = handleSubmit(async (values) => {
    await new Promise((r) => setTimeout(r, LIMITS.contactFormSubmitDelayMs));
    try {
      const saved = contact ? await updateContact(contact.id, values) : await createContact(values);
      toast.success(t("contacts.saved"));
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth scroll="paper">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{contact ? t("contacts.dialog.editTitle") : t("contacts.dialog.addTitle")}</DialogTitle>
        <DialogContent dividers>
          <Typography variant="subtitle2" color="text.secondary" gutterBottom>
            {t("contacts.dialog.mainInfo")}
          </Typography>
          <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" }, gap: 2, mb: 2 }}>
            <FormTextField control={control} name="name" label={t("contacts.dialog.name")} autoFocus required />
            <FormTextField
              control={control}
              name="number"
              label={t("contacts.dialog.number")}
              helperText={t("contacts.dialog.numberHelp")}
              required
              slotProps={{ htmlInput: { inputMode: "tel" } }}
            />
            <FormTextField control={control} name="email" label={t("contacts.dialog.email")} type="email" />
            <FormTextField control={control} name="document" label={t("contacts.dialog.document")} />
          </Box>
          <Typography variant="subtitle2" color="text.secondary" gutterBottom>
            {t("contacts.dialog.extraInfo")}
          </Typography>
          {extra.fields.map((field, index) => (
            <Box key={field.id} sx={{ display: "flex", gap: 1, mb: 1.5, alignItems: "flex-start" }}>
              <FormTextField control={control} size="small" label={t("contacts.dialog.extraName")} name={`extraInfo.${index}.name`} sx={{ flex: 1 }} />
              <FormTextField control={control} size="small" label={t("contacts.dialog.extraValue")} name={`extraInfo.${index}.value`} sx={{ flex: 2 }} />
              <IconButton aria-label={t("contacts.dialog.removeExtra")} onClick={() => extra.remove(index)}>
                <DeleteOutlineIcon />
              </IconButton>
            </Box>
          ))}
          <Button startIcon={<AddIcon />} onClick={() => extra.append({ name: "", value: "" })} size="small">
            {t("contacts.dialog.addExtra")}
          </Button>
        </DialogContent>
        <DialogFormActions onCancel={onClose} submitting={formState.isSubmitting} />
      </form>
    </Dialog>
  );
}
