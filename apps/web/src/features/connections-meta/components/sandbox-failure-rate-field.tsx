import { useState } from "react";
import { InputAdornment, TextField } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { formatDecimal, type Business } from "@atende/shared";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { businessKeys, setSandboxFailureRate } from "../api/businesses";

/** The test business's share of campaign sends that fail (simulated), in percent; saved when left. */
export function SandboxFailureRateField({ business }: { business: Business }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  // shown as a person types it: 5, or 12,5 in pt; either separator is read back
  const percent = Math.round((business.sandboxFailureRate ?? 0) * 1000) / 10;
  const initial = Number.isInteger(percent) ? String(percent) : formatDecimal(percent, i18n.language, 1);
  const [value, setValue] = useState(initial);
  const [error, setError] = useState(false);

  async function save() {
    const pct = Number(value.trim().replace(",", "."));
    if (!Number.isFinite(pct) || pct < 0 || pct > 100 || value.trim() === "") return setError(true);
    setError(false);
    if (value === initial) return;
    try {
      await setSandboxFailureRate(business.id, Math.round(pct * 10) / 1000);
      toast.success(t("connectionsMeta.businesses.failureRateSaved"));
      void queryClient.invalidateQueries({ queryKey: businessKeys.all });
    } catch (err) {
      toastError(err);
    }
  }

  return (
    <TextField
      size="small"
      label={t("connectionsMeta.businesses.failureRate")}
      value={value}
      error={error}
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => void save()}
      onKeyDown={(e) => e.key === "Enter" && void save()}
      sx={{ width: 150 }}
      slotProps={{ htmlInput: { inputMode: "decimal", "aria-label": t("connectionsMeta.businesses.failureRate") }, input: { endAdornment: <InputAdornment position="end">%</InputAdornment> } }}
    />
  );
}
