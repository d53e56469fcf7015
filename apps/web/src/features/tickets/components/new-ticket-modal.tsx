import { useEffect, useRef, useState, type FormEvent } from "react";
import { useNavigate } from "react-router-dom";
import { Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField } from "@mui/material";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import { LIMITS } from "@atende/shared";
import { useTranslation } from "react-i18next";
import { createTicket } from "../api/tickets";
import { formatBytes } from "../lib/format";
import { toastError } from "../../../lib/toast-error";
import { otherOpenTicket } from "../../../lib/other-open-ticket";
import { keepTypedMessage } from "../../../lib/ticket-drafts";
import { useWorkspace } from "./workspace-context";
import { isPhoneText, NewTicketContactField } from "./new-ticket-contact-field";
import type { Contact } from "../types";

interface Errors {
  number?: string;
  message?: string;
  whatsappId?: string;
  file?: string;
}

/** New ticket (spec 1-core §5, 2-administration §5): a phone number (all digits, ≥ 10) or a contact found by name, a message, a connected connection, an optional file ≤ 10 MB. */
export function NewTicketModal({ open, onClose, onCreated }: { open: boolean; onClose(): void; onCreated(): void }) {
  const { t } = useTranslation();
  const { me, connections } = useWorkspace();
  const navigate = useNavigate();
  const connected = connections.filter((w) => w.status === "CONNECTED");
  const [number, setNumber] = useState("");
  const [contact, setContact] = useState<Contact | null>(null);
  const [message, setMessage] = useState("");
  const [whatsappId, setWhatsappId] = useState<number | "">("");
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!open) return;
    setNumber("");
    setContact(null);
    setMessage("");
    setFile(null);
    setErrors({});
    const preferred = connected.find((w) => w.id === me.whatsappId) ?? connected.find((w) => w.isDefault) ?? (connected.length === 1 ? connected[0] : undefined);
    setWhatsappId(preferred?.id ?? "");
    // Only when the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  function validate(): Errors {
    const e: Errors = {};
    if (!contact && number.trim() && !isPhoneText(number)) e.number = t("tickets.newTicket.pickContact");
    else if (!contact && number.trim().length < 10) e.number = t("tickets.newTicket.invalidNumber");
    if (!message.trim()) e.message = t("tickets.newTicket.messageRequired");
    if (whatsappId === "" || !connected.some((w) => w.id === whatsappId)) e.whatsappId = t("tickets.newTicket.connectionRequired");
    if (file && file.size > LIMITS.attachmentMaxBytes) e.file = t("tickets.newTicket.fileTooLarge");
    return e;
  }

  async function submit(ev: FormEvent) {
    ev.preventDefault();
    const e = validate();
    setErrors(e);
    if (Object.keys(e).length || whatsappId === "") return;
    setBusy(true);
    try {
      const ticket = await createTicket({ ...(contact ? { contactId: contact.id } : { number: number.trim() }), whatsappId, userId: me.id, message: message.trim(), file });
      onCreated();
      onClose();
      if (ticket?.uuid) navigate(`/tickets/${ticket.uuid}`);
    } catch (err) {
      toastError(err);
      const existing = otherOpenTicket(err);
      if (existing) {
        // The contact already has a ticket: go there, with the typed text kept as its draft.
        keepTypedMessage(existing.id, message);
        onClose();
        navigate(`/tickets/${existing.uuid}`);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} fullWidth maxWidth="xs" PaperProps={{ component: "form", onSubmit: submit, noValidate: true } as object}>
      <DialogTitle>{t("tickets.newTicket.title")}</DialogTitle>
      <DialogContent sx={{ display: "grid", gap: 2, pt: "8px !important" }}>
        <NewTicketContactField text={number} contact={contact} error={errors.number} onTextChange={setNumber} onContactChange={setContact} />
        <TextField
          select
          required
          label={t("tickets.newTicket.connection")}
          value={whatsappId}
          onChange={(e) => setWhatsappId(Number(e.target.value))}
          error={Boolean(errors.whatsappId)}
          helperText={errors.whatsappId ?? (connected.length === 0 ? t("tickets.newTicket.noConnected") : undefined)}
          SelectProps={{ inputProps: { "data-testid": "new-ticket-connection" } }}
        >
          {connected.map((w) => (
            <MenuItem key={w.id} value={w.id}>
              {w.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          required
          label={t("tickets.newTicket.message")}
          value={message}
          multiline
          minRows={3}
          maxRows={8}
          onChange={(e) => setMessage(e.target.value)}
          error={Boolean(errors.message)}
          helperText={errors.message}
          inputProps={{ "data-testid": "new-ticket-message" }}
        />
        <Box>
          <input ref={fileRef} type="file" hidden onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
          {file ? (
            <Chip label={`${file.name} (${formatBytes(file.size)})`} onDelete={() => setFile(null)} color={errors.file ? "error" : "default"} />
          ) : (
            <Button startIcon={<AttachFileIcon />} onClick={() => fileRef.current?.click()}>
              {t("tickets.newTicket.attach")}
            </Button>
          )}
          {errors.file && (
            <Box sx={{ color: "error.main", fontSize: 12, mt: 0.5 }} role="alert">
              {errors.file}
            </Box>
          )}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t("common.cancel")}
        </Button>
        <Button type="submit" variant="contained" disabled={busy} data-testid="new-ticket-submit">
          {t("tickets.newTicket.submit")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
