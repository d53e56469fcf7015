import { MenuItem, TextField } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { canVisit, type QueueIntegrationsPage } from "@atende/shared";
import { Controller, type Control, type FieldValues, type Path } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api";
import { useCurrentUser } from "../lib/session";

const toId = (v: unknown) => (v === "" || v === null || v === undefined ? null : Number(v));

/**
 * The queue integration (bot) of a connection or queue form (domains/queue-integrations): shown only to
 * users who may use the integrations page (super users, plan flag useIntegrations) and when the
 * company has some; the key is shared with the integrations page, whose live events refresh it.
 */
export function IntegrationSelect<T extends FieldValues>({ control, name }: { control: Control<T>; name: Path<T> }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const allowed = canVisit(user, user.company.plan, "/queue-integration");
  const options = useQuery({
    queryKey: ["queueIntegrations", "options"],
    queryFn: ({ signal }) => api<QueueIntegrationsPage>("/queueIntegration", { query: { limit: "all" }, signal }).then((r) => r.queueIntegrations),
    enabled: allowed,
    staleTime: 60_000,
  });
  if (!allowed || !options.data?.length) return null;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <TextField
          select
          label={t("integrationSelect.label")}
          helperText={t("integrationSelect.help")}
          value={field.value ?? ""}
          onChange={(e) => field.onChange(toId(e.target.value))}
          slotProps={{ select: { SelectDisplayProps: { "data-testid": "integration-select" } as object } }}
        >
          <MenuItem value="">
            <em>{t("integrationSelect.none")}</em>
          </MenuItem>
          {options.data.map((o) => (
            <MenuItem key={o.id} value={o.id}>
              {o.name} ({o.type})
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}
