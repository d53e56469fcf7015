import { useEffect, useState } from "react";
import { Box, Button, Checkbox, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, ListItemText, MenuItem, Switch, TextField } from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { MSG, type Whatsapp, type WhatsappInput } from "@atende/shared";
import { useTranslation } from "react-i18next";
import { toast } from "react-toastify";
import { toastError } from "../../../lib/toast-error";
import { connectionKeys, createConnection, queuesQuery, updateConnection } from "../api/connections";

type Form = Required<Pick<WhatsappInput, "name" | "isDefault" | "greetingMessage" | "complationMessage" | "outOfHoursMessage" | "ratingMessage" | "queueIds">> & { provider: "sandbox" };

const empty: Form = { name: "", provider: "sandbox", isDefault: false, greetingMessage: "", complationMessage: "", outOfHoursMessage: "", ratingMessage: "", queueIds: [] };

/** Add or edit a connection (spec 1-core §5: name 2 to 50). Only the sandbox provider is offered for now. */
export function ConnectionModal({ open, connection, onClose, onCreated }: { open: boolean; connection: Whatsapp | null; onClose(): void; onCreated?(w: Whatsapp): void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { data: queues } = useQuery({ ...queuesQuery(), enabled: open });
  const [form, setForm] = useState<Form>(empty);
  const [nameError, setNameError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setNameError(null);
    setForm(
      connection
        ? {
            name: connection.name,
            provider: "sandbox",
            isDefault: connection.isDefault,
            greetingMessage: connection.greetingMessage,
            complationMessage: connection.complationMessage,
            outOfHoursMessage: connection.outOfHoursMessage,
            ratingMessage: connection.ratingMessage,
            queueIds: connection.queues.map((q) => q.id),
          }
        : empty,
    );
  }, [open, connection]);

  const set = <K extends keyof Form>(k: K, v: Form[K]) => setForm((f) => ({ ...f, [k]: v }));

  function validateName(): string | null {
    const n = form.name.trim();
    if (!n) return MSG.required;
    if (n.length < 2) return MSG.tooShort;
    if (n.length > 50) return MSG.tooLong;
    return null;
  }

  async function submit() {
    const err = validateName();
    setNameError(err);
    if (err) return;
    setBusy(true);
    try {
      const input = { ...form, name: form.name.trim() };
      let created: Whatsapp | null = null;
      if (connection) {
        const { provider: _provider, ...rest } = input;
        await updateConnection(connection.id, rest);
      } else created = await createConnection(input);
      await qc.invalidateQueries({ queryKey: connectionKeys.list });
      toast.success(t("connections.toasts.saved"));
      onClose();
      // A new connection starts its session at once: show its QR code.
      if (created) onCreated?.(created);
    } catch (e) {
      toastError(e);
    } finally {
      setBusy(false);
    }
  }

  const text = (k: "greetingMessage" | "complationMessage" | "outOfHoursMessage" | "ratingMessage") => (
    <TextField label={t(`connections.form.${k}`)} value={form[k]} onChange={(e) => set(k, e.target.value)} multiline minRows={2} maxRows={6} fullWidth />
  );

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="sm" fullWidth scroll="paper">
      <DialogTitle>{t(connection ? "connections.form.editTitle" : "connections.form.addTitle")}</DialogTitle>
      <DialogContent dividers sx={{ display: "grid", gap: 2 }}>
        <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "2fr 1fr" }, gap: 2, alignItems: "start" }}>
          <TextField
            label={t("connections.form.name")}
            value={form.name}
            onChange={(e) => set("name", e.target.value)}
            error={Boolean(nameError)}
            helperText={nameError}
            autoFocus
            inputProps={{ "data-testid": "connection-name" }}
          />
          <TextField select label={t("connections.form.provider")} value={form.provider} disabled={Boolean(connection)} onChange={() => set("provider", "sandbox")}>
            <MenuItem value="sandbox">{t("connections.providers.sandbox")}</MenuItem>
          </TextField>
        </Box>
        <FormControlLabel control={<Switch checked={form.isDefault} onChange={(e) => set("isDefault", e.target.checked)} />} label={t("connections.form.isDefault")} />
        <TextField
          select
          label={t("connections.form.queues")}
          value={form.queueIds}
          onChange={(e) => set("queueIds", (typeof e.target.value === "string" ? [] : e.target.value) as number[])}
          SelectProps={{
            multiple: true,
            renderValue: (sel) => (queues ?? []).filter((q) => (sel as number[]).includes(q.id)).map((q) => q.name).join(", "),
          }}
          helperText={t("connections.form.queuesHelp")}
        >
          {(queues ?? []).map((q) => (
            <MenuItem key={q.id} value={q.id} dense>
              <Checkbox size="small" checked={form.queueIds.includes(q.id)} />
              <Box sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: q.color, mr: 1 }} />
              <ListItemText primary={q.name} />
            </MenuItem>
          ))}
        </TextField>
        {text("greetingMessage")}
        {text("complationMessage")}
        {text("outOfHoursMessage")}
        {text("ratingMessage")}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t("common.cancel")}
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy} data-testid="connection-save">
          {t("common.save")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
