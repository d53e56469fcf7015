import { Select } from "@mui/material";
import { useTranslation } from "react-i18next";
import { queueOptions } from "../../../components/queue-options";
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
      {queueOptions(queues, value, t("tickets.manager.noQueues"))}
    </Select>
  );
}
