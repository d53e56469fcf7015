import { useEffect, useState, type FormEvent } from "react";
import { useNavigate } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import { Avatar, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { Contact } from "@atende/shared";
import { formMessage } from "../../../components/form-message";
import { toastError } from "../../../lib/toast-error";
import { otherOpenTicket } from "../../../lib/other-open-ticket";
import { keepTypedMessage } from "../../../lib/ticket-drafts";
import { useCurrentUser } from "../../../lib/session";
import { connectionKeys, fetchConnections, openTicket } from "../api/tickets";

// 2-administration §8 (verbatim).
const NEED_CONNECTION = "Selecione uma conexão para abrir o ticket";
const NEED_MESSAGE = "Digite uma mensagem para abrir o ticket";

interface Props {
  contact: Contact | null;
  onClose(): void;
}

/** Opens a ticket (status open) for the contact on a connected connection with a first message. */
export function NewTicketDialog({ contact, onClose }: Props) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const open = contact !== null;
  const connections = useQuery({ queryKey: connectionKeys.all, queryFn: fetchConnections, enabled: open });
  const connected = (connections.data ?? []).filter((c) => c.status === "CONNECTED");
  const [whatsappId, setWhatsappId] = useState<number | "">("");
  const [message, setMessage] = useState("");
  const [errors, setErrors] = useState<{ whatsappId?: string; message?: string }>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setMessage("");
    setErrors({});
    setWhatsappId("");
  }, [open]);

  useEffect(() => {
    // The user's own default connection is preselected when it is connected.
    if (whatsappId === "" && connected.length > 0) {
      const preferred = connected.find((c) => c.id === user.whatsappId) ?? (connected.length === 1 ? connected[0] : undefined);
      if (preferred) setWhatsappId(preferred.id);
    }
  }, [connected, whatsappId, user.whatsappId]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!contact) return;
    const next = {
      whatsappId: whatsappId === "" ? NEED_CONNECTION : undefined,
      message: message.trim() === "" ? NEED_MESSAGE : undefined,
    };
    setErrors(next);
    if (next.whatsappId || next.message || whatsappId === "") return;
    setBusy(true);
    try {
      const ticket = await openTicket({ contactId: contact.id, userId: user.id, whatsappId, message: message.trim() });
      onClose();
      navigate(`/tickets/${ticket.uuid}`);
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
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle>{t("contacts.newTicket.title")}</DialogTitle>
        <DialogContent dividers sx={{ display: "grid", gap: 2 }}>
          <Box sx={{ display: "flex", alignItems: "center", gap: 1.5 }}>
            <Avatar src={contact?.profilePicUrl || undefined}>{contact?.name.charAt(0).toUpperCase()}</Avatar>
            <Box>
              <Typography fontWeight={600}>{contact?.name}</Typography>
              <Typography variant="body2" color="text.secondary">
                {contact?.number}
              </Typography>
            </Box>
          </Box>
          <TextField
            select
            label={t("contacts.newTicket.connection")}
            value={whatsappId}
            onChange={(e) => setWhatsappId(Number(e.target.value))}
            error={!!errors.whatsappId}
            helperText={formMessage(errors.whatsappId) ?? (connections.isSuccess && connected.length === 0 ? t("contacts.newTicket.noConnections") : undefined)}
            required
            slotProps={{ select: { inputProps: { "data-testid": "new-ticket-connection" } } }}
          >
            {connected.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={t("contacts.newTicket.message")}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            error={!!errors.message}
            helperText={formMessage(errors.message)}
            multiline
            minRows={3}
            required
            name="message"
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" variant="contained" disabled={busy} startIcon={busy ? <CircularProgress size={16} /> : undefined}>
            {t("contacts.newTicket.submit")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
