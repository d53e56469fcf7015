import { List, ListItemButton, ListItemText, Paper } from "@mui/material";
import { LIMITS } from "@atende/shared";
import { WhatsAppText } from "../../../components/whatsapp-text";
import type { QuickReply } from "../types";

/** Quick-reply suggestions shown while the text starts with '/'. */
export function QuickReplies({ items, active, onPick }: { items: QuickReply[]; active: number; onPick(q: QuickReply): void }) {
  if (items.length === 0) return null;
  return (
    <Paper elevation={6} sx={{ position: "absolute", bottom: "100%", left: 8, right: 8, mb: 1, maxHeight: 260, overflowY: "auto", zIndex: 5 }} data-testid="quick-replies">
      <List dense disablePadding>
        {items.map((q, i) => (
          <ListItemButton
            key={q.id}
            selected={i === active}
            onMouseDown={(e) => {
              e.preventDefault();
              onPick(q);
            }}
          >
            <ListItemText
              primary={`/${q.shortcode}`}
              secondary={<WhatsAppText text={q.message} maxChars={LIMITS.quickReplyPreviewChars} />}
              slotProps={{
                primary: { fontWeight: 600 },
                secondary: { sx: { wordBreak: "break-word" } },
              }}
            />
          </ListItemButton>
        ))}
      </List>
    </Paper>
  );
}
