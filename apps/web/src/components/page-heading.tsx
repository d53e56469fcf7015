import type { ReactNode } from "react";
import { Box, Typography } from "@mui/material";

/** A page's title row: the title (with an optional count) on the left, actions on the right. */
export function PageHeading({ title, count, children }: { title: string; count?: number; children?: ReactNode }) {
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, flexWrap: "wrap", mb: 2 }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600, flexGrow: 1 }}>
        {title}
        {count !== undefined && (
          <Typography component="span" color="text.secondary" sx={{ ml: 1, fontSize: "1rem" }}>
            ({count})
          </Typography>
        )}
      </Typography>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>{children}</Box>
    </Box>
  );
}
