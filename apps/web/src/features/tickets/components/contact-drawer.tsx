import { useState } from "react";
import { Box, Button, CircularProgress, Divider, IconButton, Link, List, ListItem, ListItemText, Paper, TextField, Tooltip, Typography } from "@mui/material";
import CloseIcon from "@mui/icons-material/Close";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import EditIcon from "@mui/icons-material/Edit";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { LIMITS } from "@atende/shared";
import { format } from "date-fns";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { contactQuery } from "../api/contacts";
import { addNote, deleteNote, notesQuery } from "../api/notes";
import { toDate } from "../lib/format";
import { toastError } from "../../../lib/toast-error";
import type { Contact, ContactRef, Ticket } from "../types";
import { ConfirmDialog } from "./confirm-dialog";
import { ContactAvatar } from "./contact-avatar";
import { ContactModal } from "./contact-modal";

function Notes({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const q = notesQuery(ticket.id, ticket.contactId);
  const { data: notes, isLoading } = useQuery(q);
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [toDelete, setToDelete] = useState<number | null>(null);

  async function save() {
    if (text.trim().length < 2) {
      setError(t(text.trim() ? "tickets.notes.tooShort" : "tickets.validation.required"));
      return;
    }
    setBusy(true);
    try {
      await addNote({ note: text.trim(), ticketId: ticket.id, contactId: ticket.contactId });
      setText("");
      setError(null);
      toast.success(t("tickets.notes.added"));
      await qc.invalidateQueries({ queryKey: q.queryKey });
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  }

  async function remove(id: number) {
    try {
      await deleteNote(id);
      toast.success(t("tickets.notes.deleted"));
      await qc.invalidateQueries({ queryKey: q.queryKey });
    } catch (err) {
      toastError(err);
    }
  }

  return (
    <Box>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {t("tickets.notes.title")}
      </Typography>
      <TextField
        fullWidth
        multiline
        minRows={2}
        maxRows={6}
        size="small"
        placeholder={t("tickets.notes.placeholder")}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setError(null);
        }}
        error={Boolean(error)}
        helperText={error}
        inputProps={{ "data-testid": "note-input" }}
      />
      <Box sx={{ display: "flex", justifyContent: "flex-end", gap: 1, mt: 1 }}>
        <Button size="small" onClick={() => setText("")} disabled={busy || !text}>
          {t("common.cancel")}
        </Button>
        <Button size="small" variant="contained" onClick={() => void save()} disabled={busy} data-testid="note-save">
          {t("common.save")}
        </Button>
      </Box>
      {isLoading && <CircularProgress size={20} sx={{ display: "block", mx: "auto", my: 2 }} />}
      <List dense disablePadding>
        {(notes ?? []).map((n) => (
          <ListItem
            key={n.id}
            disableGutters
            alignItems="flex-start"
            secondaryAction={
              <IconButton edge="end" size="small" onClick={() => setToDelete(n.id)} aria-label={t("common.delete")}>
                <DeleteOutlineIcon fontSize="small" />
              </IconButton>
            }
            sx={{ borderBottom: 1, borderColor: "divider" }}
          >
            <ListItemText
              primary={<Typography variant="body2" sx={{ whiteSpace: "pre-wrap", pr: 3 }}>{n.note}</Typography>}
              secondary={`${n.user?.name ?? ""} · ${format(toDate(n.createdAt), "dd/MM/yy HH:mm")}`}
            />
          </ListItem>
        ))}
      </List>
      <ConfirmDialog open={toDelete !== null} title={t("tickets.notes.deleteConfirm")} danger onClose={() => setToDelete(null)} onConfirm={() => toDelete !== null && void remove(toDelete)} />
    </Box>
  );
}

/** The contact panel (320 px): details, extra info, edit and notes. */
export function ContactDrawer({ ticket, onClose }: { ticket: Ticket; onClose(): void }) {
  const { t } = useTranslation();
  const { data } = useQuery(contactQuery(ticket.contactId));
  const contact: ContactRef & Partial<Contact> = data ?? ticket.contact;
  const [editing, setEditing] = useState(false);
  return (
    <Paper square elevation={0} sx={{ width: LIMITS.contactDrawerPx, maxWidth: "100vw", height: "100%", display: "flex", flexDirection: "column", borderLeft: 1, borderColor: "divider" }} data-testid="contact-drawer">
      <Box sx={{ display: "flex", alignItems: "center", px: 1, py: 1, borderBottom: 1, borderColor: "divider", minHeight: 60 }}>
        <IconButton onClick={onClose} aria-label={t("common.close")}>
          <CloseIcon />
        </IconButton>
        <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
          {t("tickets.contact.title")}
        </Typography>
      </Box>
      <Box sx={{ flex: 1, overflowY: "auto", p: 2 }}>
        <Box sx={{ display: "flex", flexDirection: "column", alignItems: "center", textAlign: "center", gap: 0.5 }}>
          <ContactAvatar name={contact.name} src={contact.profilePicUrl} size={96} />
          <Typography variant="h6" sx={{ mt: 1, wordBreak: "break-word" }}>
            {contact.name}
          </Typography>
          <Link href={`tel:+${contact.number}`} underline="hover">
            +{contact.number}
          </Link>
          {contact.email && (
            <Link href={`mailto:${contact.email}`} underline="hover" variant="body2">
              {contact.email}
            </Link>
          )}
          {contact.formattedDocument && <Typography variant="body2">{contact.formattedDocument}</Typography>}
          <Tooltip title={t("tickets.contact.editTitle")}>
            <Button size="small" variant="outlined" startIcon={<EditIcon />} sx={{ mt: 1 }} onClick={() => setEditing(true)} disabled={!data} data-testid="contact-edit">
              {t("common.edit")}
            </Button>
          </Tooltip>
        </Box>
        {(contact.extraInfo ?? []).length > 0 && (
          <>
            <Divider sx={{ my: 2 }} />
            <Typography variant="subtitle2" sx={{ mb: 1 }}>
              {t("tickets.contact.extraInfo")}
            </Typography>
            {(contact.extraInfo ?? []).map((x, i) => (
              <Box key={i} sx={{ mb: 1, p: 1, bgcolor: "action.hover", borderRadius: 1 }}>
                <Typography variant="caption" color="text.secondary">
                  {x.name}
                </Typography>
                <Typography variant="body2" sx={{ wordBreak: "break-word" }}>
                  {x.value}
                </Typography>
              </Box>
            ))}
          </>
        )}
        <Divider sx={{ my: 2 }} />
        <Notes ticket={ticket} />
      </Box>
      {data && <ContactModal contact={data} open={editing} onClose={() => setEditing(false)} />}
    </Paper>
  );
}
