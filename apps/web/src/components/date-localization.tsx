import type { ReactNode } from "react";
import { LocalizationProvider } from "@mui/x-date-pickers/LocalizationProvider";
import { AdapterDateFns } from "@mui/x-date-pickers/AdapterDateFns";
import { enUS as enPickers, esES as esPickers, ptBR as ptPickers } from "@mui/x-date-pickers/locales";
import { enGB, es, ptBR } from "date-fns/locale";
import { useTranslation } from "react-i18next";
import type { Language } from "@atende/shared";

/**
 * Date and time pickers follow the interface language, not the browser's locale: dd/MM/yyyy and 24 h
 * in Portuguese and Spanish; English uses the day-first, 24-hour British form, as the product is
 * Brazilian and a month-first date would be misread next to Portuguese documents.
 */
const LOCALES: Record<Language, { date: typeof ptBR; texts: typeof ptPickers }> = {
  pt: { date: ptBR, texts: ptPickers },
  en: { date: enGB, texts: enPickers },
  es: { date: es, texts: esPickers },
};

export function DateLocalization({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const locale = LOCALES[i18n.language as Language] ?? LOCALES.pt;
  return (
    <LocalizationProvider
      dateAdapter={AdapterDateFns}
      adapterLocale={locale.date}
      localeText={locale.texts.components.MuiLocalizationProvider.defaultProps.localeText}
    >
      {children}
    </LocalizationProvider>
  );
}
