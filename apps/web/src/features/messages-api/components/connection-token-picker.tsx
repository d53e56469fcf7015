import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { MenuItem, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import { toastError } from "../../../lib/toast-error";
import { fetchConnections, fetchConnectionToken, messagesApiKeys } from "../api/connections";

/** Picks one of the company's connections and hands its token to the test forms. */
export function ConnectionTokenPicker({ onToken }: { onToken(token: string): void }) {
  const { t } = useTranslation();
  const connections = useQuery({ queryKey: messagesApiKeys.connections, queryFn: fetchConnections });
  const [selected, setSelected] = useState<number | "">("");
  const [missing, setMissing] = useState(false);

  async function pick(id: number | "") {
    setSelected(id);
    setMissing(false);
    if (id === "") return;
    try {
      const token = await fetchConnectionToken(id);
      setMissing(!token);
      if (token) onToken(token);
    } catch (err) {
      toastError(err);
    }
  }

  return (
    <TextField
      select
      size="small"
      label={t("messagesApi.test.connection")}
      value={selected}
      onChange={(e) => void pick(e.target.value === "" ? "" : Number(e.target.value))}
      error={missing}
      helperText={missing ? t("messagesApi.test.noToken") : undefined}
      fullWidth
      slotProps={{ select: { SelectDisplayProps: { "data-testid": "connection-picker" } as object } }}
    >
      <MenuItem value="">{t("messagesApi.test.noConnection")}</MenuItem>
      {(connections.data ?? []).map((c) => (
        <MenuItem key={c.id} value={c.id}>
          {c.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
