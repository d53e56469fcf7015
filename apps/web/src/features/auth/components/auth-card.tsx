import type { FormEventHandler, ReactNode } from "react";
import { Avatar, Box, Paper, Typography } from "@mui/material";
import ChatBubble from "@mui/icons-material/ChatBubble";

/**
 * The centred card of the public pages (login, sign-up, forgot password): product mark, title and the
 * form. Without onSubmit the card is a plain container for pages holding their own forms.
 */
interface Props {
  title: string;
  subtitle?: string;
  onSubmit?: FormEventHandler;
  children: ReactNode;
  maxWidth?: number;
  /** Forms validated by their schema turn the browser's own validation off. */
  noValidate?: boolean;
}

export function AuthCard({ title, subtitle, onSubmit, children, maxWidth = 420, noValidate = true }: Props) {
  return (
    <Box
      sx={(theme) => ({
        minHeight: "100vh",
        display: "grid",
        placeItems: "center",
        p: 2,
        background:
          theme.palette.mode === "light"
            ? "linear-gradient(135deg, #dbeafe 0%, #f4f6fb 45%, #ccfbf1 100%)"
            : "linear-gradient(135deg, #0b1220 0%, #0f172a 50%, #042f2e 100%)",
      })}
    >
      <Paper {...(onSubmit ? { component: "form" as const, onSubmit, noValidate } : {})} elevation={6} sx={{ p: { xs: 3, sm: 4 }, width: "100%", maxWidth, borderRadius: 3 }}>
        <Box sx={{ display: "flex", flexDirection: "column", alignItems: "center", mb: 2 }}>
          <Avatar sx={{ bgcolor: "primary.main", width: 56, height: 56, mb: 1 }}>
            <ChatBubble />
          </Avatar>
          <Typography variant="h4" component="div" sx={{ fontWeight: 800, letterSpacing: 0.5 }} color="primary">
            Atende
          </Typography>
          <Typography variant="h6" component="h1" sx={{ mt: 1 }}>
            {title}
          </Typography>
          {subtitle && (
            <Typography variant="body2" color="text.secondary" align="center">
              {subtitle}
            </Typography>
          )}
        </Box>
        {children}
      </Paper>
    </Box>
  );
}
