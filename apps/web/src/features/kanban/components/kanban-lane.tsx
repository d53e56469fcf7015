import { useState, type ReactNode } from "react";
import { Box, Chip, IconButton, Paper, Tooltip, Typography } from "@mui/material";
import CloseIcon from "@mui/icons-material/Close";
import { useTranslation } from "react-i18next";
import { logFailure } from "../../../lib/log-failure";
import { colorChipSx } from "../../../lib/contrast";

interface Props {
  id: string;
  title: string;
  color: string;
  count: number;
  onDropTicket(ticketId: number, from: string, to: string): void;
  /** Admins may remove a tag lane (not 'Em aberto'). */
  onRemove?(): void;
  children: ReactNode;
}

/** One kanban column; accepts cards dragged from other columns (native HTML5 drag and drop). */
export function KanbanLane({ id, title, color, count, onDropTicket, onRemove, children }: Props) {
  const { t } = useTranslation();
  const [over, setOver] = useState(false);
  return (
    <Paper
      variant="outlined"
      data-testid="kanban-lane"
      data-lane-id={id}
      aria-label={title}
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes("application/x-ticket")) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = "move";
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        try {
          const data = JSON.parse(e.dataTransfer.getData("application/x-ticket")) as { ticketId: number; from: string };
          if (data.from !== id) onDropTicket(data.ticketId, data.from, id);
        } catch (err) {
          // something other than a ticket card was dropped here: nothing to move
          logFailure("ignored a drop that is not a ticket card", err, { lane: id });
        }
      }}
      sx={{
        width: 300,
        flexShrink: 0,
        display: "flex",
        flexDirection: "column",
        maxHeight: "100%",
        bgcolor: over ? "action.selected" : "background.default",
        transition: "background-color 0.15s",
        overflow: "hidden",
      }}
    >
      <Box sx={{ ...colorChipSx(color), px: 2, py: 1.25, display: "flex", alignItems: "center", gap: 1 }}>
        <Typography fontWeight={600} noWrap sx={{ flexGrow: 1 }}>
          {title}
        </Typography>
        <Chip size="small" label={count} sx={{ bgcolor: "rgba(255,255,255,0.25)", color: "inherit", fontWeight: 600 }} />
        {onRemove && (
          <Tooltip title={t("kanban.removeLane")}>
            <IconButton size="small" aria-label={t("kanban.removeLane")} onClick={onRemove} sx={{ color: "inherit", mr: -1, my: -0.5 }} data-testid="remove-lane">
              <CloseIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </Box>
      <Box sx={{ p: 1, display: "flex", flexDirection: "column", gap: 1, overflowY: "auto", minHeight: 120, flexGrow: 1 }}>
        {children}
        {count === 0 && (
          <Typography variant="body2" color="text.secondary" align="center" sx={{ py: 3 }}>
            {t("kanban.empty")}
          </Typography>
        )}
      </Box>
    </Paper>
  );
}
