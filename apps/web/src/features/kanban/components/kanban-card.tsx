import { Avatar, Box, Card, CardActionArea, Chip, Typography } from "@mui/material";
import { format, isToday } from "date-fns";
import { useTranslation } from "react-i18next";
import { whatsAppPreview, type Ticket } from "@atende/shared";
import { colorChipSx } from "../../../lib/contrast";

interface Props {
  ticket: Ticket;
  laneId: string;
  onOpen(ticket: Ticket): void;
}

const time = (iso: string | null) => {
  if (!iso) return "";
  const d = new Date(iso);
  return isToday(d) ? format(d, "HH:mm") : format(d, "dd/MM/yyyy");
};

/** A draggable ticket card: contact, last message and its time; a click opens the conversation. */
export function KanbanCard({ ticket, laneId, onOpen }: Props) {
  const { t } = useTranslation();
  return (
    <Card
      variant="outlined"
      draggable
      data-testid="kanban-card"
      data-ticket-id={ticket.id}
      onDragStart={(e) => {
        e.dataTransfer.setData("application/x-ticket", JSON.stringify({ ticketId: ticket.id, from: laneId }));
        e.dataTransfer.effectAllowed = "move";
      }}
      sx={{ cursor: "grab", "&:active": { cursor: "grabbing" }, flexShrink: 0 }}
    >
      <CardActionArea onClick={() => onOpen(ticket)} sx={{ p: 1.5 }}>
        <Box sx={{ display: "flex", gap: 1.25, alignItems: "center", mb: 0.75 }}>
          <Avatar src={ticket.contact.profilePicUrl || undefined} sx={{ width: 32, height: 32 }}>
            {ticket.contact.name.charAt(0).toUpperCase()}
          </Avatar>
          <Box sx={{ minWidth: 0, flexGrow: 1 }}>
            <Typography variant="body2" fontWeight={600} noWrap>
              {ticket.contact.name}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {t("kanban.ticket", { id: ticket.id })}
            </Typography>
          </Box>
          <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: "nowrap" }}>
            {time(ticket.lastMessageAt ?? ticket.updatedAt)}
          </Typography>
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ display: "-webkit-box", WebkitLineClamp: 2, WebkitBoxOrient: "vertical", overflow: "hidden", wordBreak: "break-word" }}>
          {whatsAppPreview(ticket.lastMessage ?? "") || t("kanban.noMessage")}
        </Typography>
        {(ticket.queue || ticket.user) && (
          <Box sx={{ display: "flex", gap: 0.5, mt: 1, flexWrap: "wrap" }}>
            {ticket.queue && <Chip size="small" label={ticket.queue.name} sx={{ ...colorChipSx(ticket.queue.color), height: 20, fontSize: 11 }} />}
            {ticket.user && <Chip size="small" variant="outlined" label={ticket.user.name} sx={{ height: 20, fontSize: 11 }} />}
          </Box>
        )}
      </CardActionArea>
    </Card>
  );
}
