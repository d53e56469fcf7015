import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, MenuItem, Stack, Switch, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import type { OfficialWhatsapp } from "@atende/shared";
import { toastError } from "../../../lib/toast-error";
import { THROUGHPUT_MAX, THROUGHPUT_MIN } from "@atende/shared";
import { bulkUpdateOfficialNumbers, fetchQueueOptions, officialKeys, updateOfficialNumber, updateThroughput } from "../api/official-whatsapp";

interface Props {
  open: boolean;
  /** One number: its own values are edited; several: only the fields changed here are applied to all. */
  rows: OfficialWhatsapp[];
  /** The campaign send rate of one number (plans with campaigns). */
  showThroughput?: boolean;
  onClose(): void;
  onSaved(records: OfficialWhatsapp[]): void;
}

const KEEP = "keep";
const NONE = "none";

/** Edit of one official number, or bulk edit of the selected ones: active and transfer queue. */
export function EditNumbersDialog({ open, rows, showThroughput = false, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const single = rows.length === 1 ? rows[0]! : null;
  const queues = useQuery({ queryKey: officialKeys.queues, queryFn: fetchQueueOptions, enabled: open, staleTime: 60_000 });
  const [active, setActive] = useState<string>(KEEP);
  const [queue, setQueue] = useState<string>(KEEP);
  const [saving, setSaving] = useState(false);
  const [throughput, setThroughput] = useState("");

  useEffect(() => {
    if (!open) return;
    setActive(single ? String(single.active) : KEEP);
    setQueue(single ? (single.transferQueueId ? String(single.transferQueueId) : NONE) : KEEP);
    setThroughput(single ? String(single.throughputPerSecond) : "");
  }, [open, single]);

  const queueValue = (v: string) => (v === NONE ? null : Number(v));
  const changes = {
    ...(active !== KEEP ? { active: active === "true" } : {}),
    ...(queue !== KEEP ? { transferQueueId: queueValue(queue) } : {}),
  };
  const throughputValue = Number(throughput);
  const throughputChanged = showThroughput && single !== null && throughput !== String(single.throughputPerSecond);
  const throughputInvalid = throughputChanged && (!/^\d+$/.test(throughput) || throughputValue < THROUGHPUT_MIN || throughputValue > THROUGHPUT_MAX);
  const nothing = Object.keys(changes).length === 0 && !throughputChanged;

  async function save() {
    setSaving(true);
    try {
      if (single && throughputChanged) await updateThroughput(single.id, throughputValue);
      const records = single
        ? [Object.keys(changes).length ? await updateOfficialNumber(single.id, changes) : { ...single, throughputPerSecond: throughputValue }]
        : (await bulkUpdateOfficialNumbers({ ids: rows.map((r) => r.id), ...changes })).records;
      toast.success(single ? t("connectionsMeta.edit.saved") : t("connectionsMeta.edit.bulkSaved", { count: records.length }));
      onSaved(records);
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="edit-numbers-title">
      <DialogTitle id="edit-numbers-title">
        {single ? t("connectionsMeta.edit.title", { number: single.displayPhoneNumber || single.phoneNumber }) : t("connectionsMeta.edit.bulkTitle", { count: rows.length })}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {!single && <Alert severity="info">{t("connectionsMeta.edit.bulkHint")}</Alert>}
          {single ? (
            <FormControlLabel
              control={<Switch checked={active === "true"} onChange={(e) => setActive(String(e.target.checked))} />}
              label={t("connectionsMeta.edit.active")}
            />
          ) : (
            <TextField select label={t("connectionsMeta.edit.active")} value={active} onChange={(e) => setActive(e.target.value)}>
              <MenuItem value={KEEP}>{t("connectionsMeta.edit.keep")}</MenuItem>
              <MenuItem value="true">{t("connectionsMeta.edit.activate")}</MenuItem>
              <MenuItem value="false">{t("connectionsMeta.edit.deactivate")}</MenuItem>
            </TextField>
          )}
          <TextField select label={t("connectionsMeta.edit.transferQueue")} value={queue} onChange={(e) => setQueue(e.target.value)}>
            {!single && <MenuItem value={KEEP}>{t("connectionsMeta.edit.keep")}</MenuItem>}
            <MenuItem value={NONE}>{t("connectionsMeta.edit.noQueue")}</MenuItem>
            {(queues.data ?? []).map((q) => (
              <MenuItem key={q.id} value={String(q.id)}>
                {q.name}
              </MenuItem>
            ))}
          </TextField>
          {single && showThroughput && (
            <TextField
              label={t("connectionsMeta.throughput.label")}
              value={throughput}
              onChange={(e) => setThroughput(e.target.value.replace(/\D/g, ""))}
              error={throughputInvalid}
              helperText={throughputInvalid ? t("connectionsMeta.throughput.range", { min: THROUGHPUT_MIN, max: THROUGHPUT_MAX }) : t("connectionsMeta.throughput.hint")}
              slotProps={{ htmlInput: { inputMode: "numeric", "data-testid": "throughput-input" } }}
            />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={saving}>
          {t("common.cancel")}
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving || nothing || throughputInvalid} startIcon={saving ? <CircularProgress size={16} /> : undefined}>
          {t("common.save")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
