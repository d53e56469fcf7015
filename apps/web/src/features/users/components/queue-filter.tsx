import { Box, Checkbox, Chip, ListItemText, MenuItem, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { QueueOption } from "../api/get-queues";

/** Multi-select of queues filtering the users list. */
export function QueueFilter({ queues, value, onChange }: { queues: QueueOption[]; value: number[]; onChange(next: number[]): void }) {
  const { t } = useTranslation();
  return (
    <TextField
      select
      size="small"
      label={t("users.filterQueues")}
      value={value}
      onChange={(e) => onChange(e.target.value as unknown as number[])}
      sx={{ minWidth: 220 }}
      slotProps={{
        select: {
          multiple: true,
          renderValue: (selected) => (
            <Box sx={{ display: "flex", flexWrap: "nowrap", gap: 0.5, overflow: "hidden" }}>
              {(selected as number[]).map((id) => {
                const q = queues.find((x) => x.id === id);
                return <Chip key={id} size="small" label={q?.name ?? id} sx={{ bgcolor: q?.color, color: q?.color ? "#fff" : undefined }} />;
              })}
            </Box>
          ),
        },
      }}
      data-testid="queue-filter"
    >
      {queues.length === 0 && (
        <MenuItem disabled value="">
          {t("users.noQueues")}
        </MenuItem>
      )}
      {queues.map((q) => (
        <MenuItem key={q.id} value={q.id}>
          <Checkbox size="small" checked={value.includes(q.id)} />
          <ListItemText primary={q.name} />
        </MenuItem>
      ))}
    </TextField>
  );
}
