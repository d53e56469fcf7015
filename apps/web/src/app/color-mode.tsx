import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { STORAGE_KEYS } from "../lib/storage";

export type ColorMode = "light" | "dark";
const ColorModeContext = createContext<{ mode: ColorMode; toggle(): void }>({ mode: "light", toggle: () => undefined });

/**
 * The light/dark choice (kept on the device). It lives apart from MUI's theme so the login page, which
 * is drawn without MUI (see `features/auth/login-page.tsx`), follows it too: the mode is also written
 * on `<html data-color-mode>`, which `base.css` reads.
 */
export function ColorModeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<ColorMode>(() => {
    const stored: ColorMode = localStorage.getItem(STORAGE_KEYS.theme) === "dark" ? "dark" : "light";
    document.documentElement.dataset.colorMode = stored; // before the first paint: no flash of the other mode
    return stored;
  });
  useEffect(() => {
    document.documentElement.dataset.colorMode = mode;
  }, [mode]);
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
  return <ColorModeContext.Provider value={value}>{children}</ColorModeContext.Provider>;
}

export const useColorMode = () => useContext(ColorModeContext);
