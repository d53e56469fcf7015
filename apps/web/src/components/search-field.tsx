import { InputAdornment, TextField } from "@mui/material";
import SearchIcon from "@mui/icons-material/Search";
import { useTranslation } from "react-i18next";

/** The search box of list pages (the caller debounces the value). */
export function SearchField({ value, onChange, placeholder }: { value: string; onChange(value: string): void; placeholder?: string }) {
  const { t } = useTranslation();
  return (
    <TextField
      size="small"
      type="search"
      placeholder={placeholder ?? t("common.search")}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon color="action" />
            </InputAdornment>
          ),
        },
        htmlInput: { "aria-label": placeholder ?? t("common.search") },
      }}
    />
  );
}
