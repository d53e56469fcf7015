import { useMemo, type ReactNode } from "react";
import { createTheme, CssBaseline, ThemeProvider } from "@mui/material";
import { ptBR, enUS, esES } from "@mui/material/locale";
import { useTranslation } from "react-i18next";
import { useColorMode } from "./color-mode";

/**
 * MUI's theme for every page but the login page, in the device's colour mode (`color-mode.tsx`). It
 * loads with the first page that needs it (`app.tsx`), so MUI is no part of the login page's weight.
 */
export default function AppThemeProvider({ children }: { children: ReactNode }) {
  const { mode } = useColorMode();
  const { i18n } = useTranslation();
  const locale = i18n.language === "en" ? enUS : i18n.language === "es" ? esES : ptBR;
  const theme = useMemo(
    () =>
      createTheme(
        {
          palette: {
            mode,
            primary: { main: mode === "light" ? "#2563eb" : "#60a5fa" },
            secondary: { main: "#0f766e" },
            background: mode === "light" ? { default: "#f4f6fb", paper: "#ffffff" } : { default: "#0f172a", paper: "#1e293b" },
          },
          shape: { borderRadius: 8 },
          typography: { fontFamily: "Inter, Roboto, 'Segoe UI', Arial, sans-serif" },
        },
        locale,
      ),
    [mode, locale],
  );
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {children}
    </ThemeProvider>
  );
}
