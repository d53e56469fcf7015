import { Suspense } from "react";
import { Outlet } from "react-router-dom";
import { Box, LinearProgress } from "@mui/material";

/** The application shell (drawer, app bar) around private pages. */
export function AppLayout() {
  return (
    <Box sx={{ display: "flex", minHeight: "100vh" }}>
      <Box component="main" sx={{ flexGrow: 1, p: 2 }}>
        <Suspense fallback={<LinearProgress />}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}
