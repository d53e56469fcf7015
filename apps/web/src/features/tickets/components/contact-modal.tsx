import { useEffect, useState } from "react";
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, TextField, Typography } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import { useQueryClient } from "@tanstack/react-query";
import { contactNumberValue, LIMITS } from "@atende/shared";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { updateContact } from "../api/contacts";
import { toastError } from "../../../lib/toast-error";
import type { Contact } from "../types";
import { formMessage } from "../../../components/form-message";

type Errors = Partial<Record<"name" | "number" | "email", string>>;

/** Contact edit (spec 1-core §5): name 2-50, number 8-50 (digits only), valid e-mail; submit after 400 ms. */
export function ContactModal({ contact, open, onClose }: { contact: Contact; open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [name, setName] = useState("");
  const [number, setNumber] = useState("");
  const [email, setEmail] = useState("");
  const [extra, setExtra] = useState<{ name: string; value: string }[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setName(contact.name ?? "");
    setNumber(contact.number ?? "");
    setEmail(contact.email ?? "");
    setExtra((contact.extraInfo ?? []).map((x) => ({ name: x.name, value: x.value })));
    setErrors({});
  }, [open, contact]);

  function validate(): Errors {
    const e: Errors = {};
    const n = name.trim();
    if (!n) e.name = t("tickets.validation.required");
    else if (n.length < 2) e.name = t("tickets.validation.tooShort");
    else if (n.length > 50) e.name = t("tickets.validation.tooLong");
    const digits = contactNumberValue(number);
    if (!digits) e.number = t("tickets.validation.required");
    else if (digits.length < 8) e.number = t("tickets.validation.tooShort");
    else if (digits.length > 50) e.number = t("tickets.validation.tooLong");
    if (email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) e.email = t("tickets.validation.invalidEmail");
    return e;
  }

  async function submit() {
    const e = validate();
    setErrors(e);
    if (Object.keys(e).length) return;
    setBusy(true);
    await new Promise((r) => setTimeout(r, LIMITS.contactFormSubmitDelayMs));
    try {
      const saved = await updateContact(contact.id, {
        name: name.trim(),
        number: contactNumberValue(number),
        email: email.trim(),
        extraInfo: extra.filter((x) => x.name.trim() || x.value.trim()),
      });
      qc.setQueryData(["contacts", "one", contact.id], saved);
      await qc.invalidateQueries({ queryKey: ["tickets", "one"] });
      toast.success(t("tickets.contact.saved"));
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{t("tickets.contact.editTitle")}</DialogTitle>
      <DialogContent sx={{ display: "grid", gap: 2, pt: "8px !important" }}>
        <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" }, gap: 2 }}>
          <TextField required label={t("tickets.contact.name")} value={name} onChange={(e) => setName(e.target.value)} error={Boolean(errors.name)} helperText={formMessage(errors.name)} autoFocus />
          <TextField required label={t("tickets.contact.number")} value={number} onChange={(e) => setNumber(e.target.value)} error={Boolean(errors.number)} helperText={formMessage(errors.number)} placeholder="5511999998888" />
        </Box>
        <TextField label={t("tickets.contact.email")} value={email} onChange={(e) => setEmail(e.target.value)} error={Boolean(errors.email)} helperText={formMessage(errors.email)} />
        <Typography variant="subtitle2">{t("tickets.contact.extraInfo")}</Typography>
        {extra.map((x, i) => (
          <Box key={i} sx={{ display: "flex", gap: 1, alignItems: "center" }}>
            <TextField size="small" label={t("tickets.contact.extraName")} value={x.name} onChange={(e) => setExtra(extra.map((y, j) => (j === i ? { ...y, name: e.target.value } : y)))} sx={{ flex: 1 }} />
            <TextField size="small" label={t("tickets.contact.extraValue")} value={x.value} onChange={(e) => setExtra(extra.map((y, j) => (j === i ? { ...y, value: e.target.value } : y)))} sx={{ flex: 1 }} />
            <IconButton onClick={() => setExtra(extra.filter((_, j) => j !== i))} aria-label={t("common.delete")}>
              <DeleteOutlineIcon />
            </IconButton>
          </Box>
        ))}
        <Button startIcon={<AddIcon />} onClick={() => setExtra([...extra, { name: "", value: "" }])} sx={{ justifySelf: "start" }}>
          {t("tickets.contact.addExtra")}
        </Button>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t("common.cancel")}
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy}>
          {t("common.save")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
