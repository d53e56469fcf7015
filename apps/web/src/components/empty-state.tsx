import type { ReactNode } from "react";
import { Box, TableCell, TableRow, Typography } from "@mui/material";
import InboxOutlinedIcon from "@mui/icons-material/InboxOutlined";

/** The one empty-state layout of list pages: a muted inbox icon over the page's 'nothing here' text. */
export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ py: 6, px: 2, display: "flex", flexDirection: "column", alignItems: "center", gap: 1, color: "text.secondary", textAlign: "center" }} data-testid="empty-state">
      <InboxOutlinedIcon sx={{ fontSize: 40, opacity: 0.6 }} />
      <Typography variant="body2">{children}</Typography>
    </Box>
  );
}

/** EmptyState as the single row of an empty table. */
export function EmptyTableRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <TableRow>
      <TableCell colSpan={colSpan} sx={{ borderBottom: 0 }}>
        <EmptyState>{children}</EmptyState>
      </TableCell>
    </TableRow>
  );
}
