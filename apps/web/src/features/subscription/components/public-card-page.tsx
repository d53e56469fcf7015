import type { ReactNode } from "react";
import { Box, Card, CardContent, Stack, Typography } from "@mui/material";

/** A page of its own without the app's shell (no session needed): one centred card with a title. */
export function PublicCardPage({ title, maxWidth, children }: { title: string; maxWidth: number; children: ReactNode }) {
  return (
    <Box sx={{ minHeight: "100vh", display: "flex", alignItems: "center", justifyContent: "center", p: 2, bgcolor: "background.default" }}>
      <Card sx={{ maxWidth, width: "100%" }}>
        <CardContent>
          <Stack spacing={2}>
            <Typography variant="h5" component="h1">
              {title}
            </Typography>
            {children}
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
