import { createContext, useContext, useMemo, useState, type ReactNode } from "react";
import { createTheme, CssBaseline, ThemeProvider } from "@mui/material";
import { ptBR, enUS, esES } from "@mui/material/locale";
import { useTranslation } from "react-i18next";
import { STORAGE_KEYS } from "../lib/storage";

type Mode = "light" | "dark";
const ColorModeContext = createContext<{ mode: Mode; toggle(): void }>({ mode: "light", toggle: () => undefined });

export function AppThemeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<Mode>(() => (localStorage.getItem(STORAGE_KEYS.theme) === "dark" ? "dark" : "light"));
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
  const value = useMemo(
    () => ({
      mode,
      toggle: () =>
        setMode((m) => {
          const next = m === "light" ? "dark" : "light";
          localStorage.setItem(STORAGE_KEYS.theme, next);
          return next;
        }),
    }),
    [mode],
  );
  return (
    <ColorModeContext.Provider value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </ColorModeContext.Provider>
  );
}

export const useColorMode = () => useContext(ColorModeContext);
