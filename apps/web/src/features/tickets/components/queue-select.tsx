import { Checkbox, ListItemText, MenuItem, Select, Box } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { QueueRef } from "../types";

/** The queue filter of the ticket list (multi-select with the queue colours). */
export function QueueSelect({ queues, value, onChange }: { queues: QueueRef[]; value: number[]; onChange(ids: number[]): void }) {
  const { t } = useTranslation();
  return (
    <Select
      multiple
      size="small"
      displayEmpty
      value={value}
      onChange={(e) => onChange(typeof e.target.value === "string" ? [] : e.target.value)}
      renderValue={(sel) => (sel.length ? t("tickets.manager.queuesSelected", { count: sel.length }) : t("tickets.manager.queues"))}
      sx={{ minWidth: 120, maxWidth: 180, fontSize: 14, "& .MuiSelect-select": { py: 0.75 } }}
      inputProps={{ "aria-label": t("tickets.manager.queues"), "data-testid": "queue-select" }}
      MenuProps={{ slotProps: { paper: { sx: { maxHeight: 360 } } } }}
    >
      {queues.length === 0 && (
        <MenuItem disabled>
          <ListItemText primary={t("tickets.manager.noQueues")} />
        </MenuItem>
      )}
      {queues.map((q) => (
        <MenuItem key={q.id} value={q.id} dense>
          <Checkbox size="small" checked={value.includes(q.id)} sx={{ color: q.color, "&.Mui-checked": { color: q.color } }} />
          <Box sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: q.color, mr: 1 }} />
          <ListItemText primary={q.name} />
        </MenuItem>
      ))}
    </Select>
  );
}
