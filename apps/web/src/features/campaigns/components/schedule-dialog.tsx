import { useEffect, useState } from "react";
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import { dateToZonedLocal, type Campaign } from "@atende/shared";
import { DateTimeField, INVALID_DATE } from "../../../components/date-time-field";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { scheduleCampaign } from "../api/campaigns";

interface Props {
  open: boolean;
  /** The campaign being edited, or null to choose one of `candidates`. */
  campaign: Campaign | null;
  candidates: Campaign[];
  timeZone: string;
  onClose(): void;
  onSaved(): void;
}

/** Sets a campaign's start time (a wall-clock time in the company's zone). */
export function ScheduleDialog({ open, campaign, candidates, timeZone, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [campaignId, setCampaignId] = useState<number | "">("");
  const [when, setWhen] = useState("");
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setCampaignId(campaign?.id ?? "");
    setWhen(campaign?.scheduledAt ? dateToZonedLocal(new Date(campaign.scheduledAt), timeZone) : "");
  }, [open, campaign, timeZone]);

  async function save() {
    if (campaignId === "" || !when || when === INVALID_DATE) return;
    setSaving(true);
    try {
      await scheduleCampaign(campaignId, when);
      toast.success(t("campaigns.calendar.saved"));
      onSaved();
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t("campaigns.calendar.dialogTitle")}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField
            select
            label={t("campaigns.calendar.campaign")}
            value={campaignId}
            disabled={campaign !== null}
            onChange={(e) => setCampaignId(Number(e.target.value))}
            fullWidth
            slotProps={{ htmlInput: { "data-testid": "schedule-campaign" } }}
          >
            {(campaign ? [campaign] : candidates).map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.name}
              </MenuItem>
            ))}
          </TextField>
          <DateTimeField label={t("campaigns.calendar.when")} value={when} onChange={setWhen} name="scheduledAt" />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("campaigns.calendar.cancel")}</Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving || campaignId === "" || !when || when === INVALID_DATE}>
          {t("campaigns.calendar.save")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
