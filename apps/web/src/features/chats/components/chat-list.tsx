import { Badge, Box, IconButton, List, ListItem, ListItemButton, ListItemText, Tooltip, Typography } from "@mui/material";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import EditIcon from "@mui/icons-material/Edit";
import { useTranslation } from "react-i18next";
import type { Chat } from "@atende/shared";
import { useCurrentUser } from "../../../lib/session";
import { formatInZone, useCompanyTimeZone } from "../../../lib/time-zone";
import { unreadsFor } from "./chat-live";

interface Props {
  chats: Chat[];
  selectedUuid?: string;
  onOpen(chat: Chat): void;
  onEdit(chat: Chat): void;
  onDelete(chat: Chat): void;
}

/** The user's chats, latest activity first, each with its unread count; only the owner sees edit and delete. */
export function ChatList({ chats, selectedUuid, onOpen, onEdit, onDelete }: Props) {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const timeZone = useCompanyTimeZone();
  return (
    <List disablePadding aria-label={t("chats.title")}>
      {chats.map((c) => {
        const unread = unreadsFor(c, me.id);
        return (
          <ListItem
            key={c.id}
            disablePadding
            data-testid="chat-item"
            secondaryAction={
              c.ownerId === me.id && (
                <Box sx={{ display: "flex" }}>
                  <Tooltip title={t("chats.edit")}>
                    <IconButton size="small" aria-label={t("chats.edit")} onClick={() => onEdit(c)}>
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t("chats.delete")}>
                    <IconButton size="small" color="error" aria-label={t("chats.delete")} onClick={() => onDelete(c)}>
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </Box>
              )
            }
            sx={{ "& .MuiListItemSecondaryAction-root": { right: 8 } }}
          >
            <ListItemButton selected={c.uuid === selectedUuid} onClick={() => onOpen(c)} sx={{ gap: 1, pr: c.ownerId === me.id ? 11 : 2 }}>
              <ListItemText
                primary={
                  <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
                    <Typography component="span" noWrap sx={{ fontWeight: unread ? 700 : 500, flex: 1 }}>
                      {c.title}
                    </Typography>
                    <Typography component="span" variant="caption" color="text.secondary" sx={{ whiteSpace: "nowrap" }}>
                      {formatInZone(c.updatedAt, timeZone, "dd/MM HH:mm")}
                    </Typography>
                  </Box>
                }
                secondary={c.lastMessage || c.users.map((u) => u.user.name).join(", ")}
                slotProps={{ secondary: { noWrap: true } }}
              />
              <Badge badgeContent={unread} color="error" max={99} data-testid="chat-unread" sx={{ mx: 1 }} />
            </ListItemButton>
          </ListItem>
        );
      })}
    </List>
  );
}
