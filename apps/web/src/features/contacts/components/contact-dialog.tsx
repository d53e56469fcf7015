import { useEffect } from "react";
import { useFieldArray, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, TextField, Typography } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import { useTranslation } from "react-i18next";
import { toast } from "react-toastify";
import { contactInput, LIMITS, type Contact } from "@atende/shared";
import type { z } from "zod";
import { formMessage } from "../../../components/form-message";
import { toastError } from "../../../lib/toast-error";
import { createContact, updateContact } from "../api/contacts";

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
  const { register, control, handleSubmit, reset, formState } = useForm<FormIn, unknown, FormOut>({
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

  const err = formState.errors;
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth scroll="paper">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{contact ? t("contacts.dialog.editTitle") : t("contacts.dialog.addTitle")}</DialogTitle>
        <DialogContent dividers>
          <Typography variant="subtitle2" color="text.secondary" gutterBottom>
            {t("contacts.dialog.mainInfo")}
          </Typography>
          <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" }, gap: 2, mb: 2 }}>
            <TextField
              label={t("contacts.dialog.name")}
              {...register("name")}
              error={!!err.name}
              helperText={formMessage(err.name?.message)}
              autoFocus
              required
            />
            <TextField
              label={t("contacts.dialog.number")}
              {...register("number")}
              error={!!err.number}
              helperText={formMessage(err.number?.message) ?? t("contacts.dialog.numberHelp")}
              required
              slotProps={{ htmlInput: { inputMode: "tel" } }}
            />
            <TextField label={t("contacts.dialog.email")} type="email" {...register("email")} error={!!err.email} helperText={formMessage(err.email?.message)} />
            <TextField label={t("contacts.dialog.document")} {...register("document")} error={!!err.document} helperText={formMessage(err.document?.message)} />
          </Box>
          <Typography variant="subtitle2" color="text.secondary" gutterBottom>
            {t("contacts.dialog.extraInfo")}
          </Typography>
          {extra.fields.map((field, index) => (
            <Box key={field.id} sx={{ display: "flex", gap: 1, mb: 1.5, alignItems: "flex-start" }}>
              <TextField size="small" label={t("contacts.dialog.extraName")} {...register(`extraInfo.${index}.name`)} sx={{ flex: 1 }} />
              <TextField size="small" label={t("contacts.dialog.extraValue")} {...register(`extraInfo.${index}.value`)} sx={{ flex: 2 }} />
              <IconButton aria-label={t("contacts.dialog.removeExtra")} onClick={() => extra.remove(index)}>
                <DeleteOutlineIcon />
              </IconButton>
            </Box>
          ))}
          <Button startIcon={<AddIcon />} onClick={() => extra.append({ name: "", value: "" })} size="small">
            {t("contacts.dialog.addExtra")}
          </Button>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={formState.isSubmitting}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" variant="contained" disabled={formState.isSubmitting} startIcon={formState.isSubmitting ? <CircularProgress size={16} /> : undefined}>
            {t("common.save")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
