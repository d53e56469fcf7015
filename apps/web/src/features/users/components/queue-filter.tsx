import { Box, Chip, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import { queueOptions } from "../../../components/queue-options";
import type { QueueOption } from "../api/get-queues";
import { colorChipSx } from "../../../lib/contrast";

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
                return <Chip key={id} size="small" label={q?.name ?? id} sx={colorChipSx(q?.color)} />;
              })}
            </Box>
          ),
        },
      }}
      data-testid="queue-filter"
    >
      {queueOptions(queues, value, t("users.noQueues"))}
    </TextField>
  );
}
