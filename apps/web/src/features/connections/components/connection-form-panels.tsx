import { Box, FormControlLabel, FormHelperText, MenuItem, Switch, TextField } from "@mui/material";
import type { Queue, WhatsappProvider } from "@atende/shared";
import { Controller, type Control } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { QueueDot, queueOptions } from "../../../components/queue-options";
import { formMessage } from "../../../components/form-message";
import { FormTextField } from "../../../components/form-text-field";
import { IntegrationSelect } from "../../../components/integration-select";
import type { PromptOption } from "../api/connections";
import { ApiTokenField } from "./api-token-field";
import type { ConnectionFormIn } from "./connection-form-schema";
import { ProviderLabel } from "./provider-label";

type Ctl = { control: Control<ConnectionFormIn> };
const toId = (v: unknown) => (v === "" || v === null || v === undefined ? null : Number(v));
const toInt = (v: string) => (v === "" ? "" : Math.trunc(Number(v)));
/**
 * `providers`: the types this server lets admins create (GET /whatsapp/providers: no sandbox in
 * production unless enabled); official numbers come from the official connections sync.
 */
export function GeneralPanel({
  control,
  queues,
  isNew,
  isOfficial,
  providers,
}: Ctl & { queues: Queue[]; isNew: boolean; isOfficial: boolean; providers: WhatsappProvider[] }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "3fr 2fr" }, gap: 2, alignItems: "start" }}>
      <FormTextField
        control={control}
        name="name"
        label={t("connections.form.name")}
        required={!isOfficial}
        disabled={isOfficial}
        autoFocus={!isOfficial}
        helperText={isOfficial ? t("connections.form.officialName") : undefined}
        slotProps={{ htmlInput: { "data-testid": "connection-name", maxLength: 60 } }}
      />
      <Controller
        control={control}
        name="provider"
        render={({ field }) => (
          <TextField
            select
            label={t("connections.form.provider")}
            value={field.value ?? "sandbox"}
            onChange={(e) => field.onChange(e.target.value)}
            disabled={!isNew}
            helperText={isNew ? t(`connections.form.providerHelp.${field.value ?? "sandbox"}`) : undefined}
            slotProps={{ select: { SelectDisplayProps: { "data-testid": "connection-provider" } as object } }}
          >
            {(isNew && providers.length ? providers : [field.value ?? "sandbox"]).map((p) => (
              <MenuItem key={p} value={p}>
                <ProviderLabel provider={p} />
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <Controller
        control={control}
        name="isDefault"
        render={({ field, fieldState }) => (
          <Box sx={{ gridColumn: "1 / -1" }}>
            <FormControlLabel
              control={<Switch checked={!!field.value} onChange={(e) => field.onChange(e.target.checked)} slotProps={{ input: { "data-testid": "connection-default" } as object }} />}
              label={t("connections.form.isDefault")}
            />
            <FormHelperText error={!!fieldState.error} sx={{ mt: 0 }}>
              {formMessage(fieldState.error?.message) ?? t("connections.form.isDefaultHelp")}
            </FormHelperText>
          </Box>
        )}
      />
      <Controller
        control={control}
        name="queueIds"
        render={({ field, fieldState }) => {
          const value = field.value ?? [];
          return (
            <TextField
              select
              label={t("connections.form.queues")}
              value={value}
              onChange={(e) => field.onChange(typeof e.target.value === "string" ? [] : (e.target.value as unknown as number[]))}
              error={!!fieldState.error}
              helperText={formMessage(fieldState.error?.message) ?? t("connections.form.queuesHelp")}
              slotProps={{
                select: {
                  multiple: true,
                  SelectDisplayProps: { "data-testid": "connection-queues" } as object,
                  renderValue: (sel) =>
                    queues
                      .filter((q) => (sel as number[]).includes(q.id))
                      .map((q) => q.name)
                      .join(", "),
                },
              }}
            >
              {queueOptions(queues, value, t("connections.form.noQueues"))}
            </TextField>
          );
        }}
      />
      <Controller
        control={control}
        name="transferQueueId"
        render={({ field }) => (
          <TextField
            select
            label={t("connections.form.transferQueue")}
            value={field.value ?? ""}
            onChange={(e) => field.onChange(toId(e.target.value))}
            helperText={t("connections.form.transferQueueHelp")}
            slotProps={{ select: { SelectDisplayProps: { "data-testid": "connection-transferQueue" } as object } }}
          >
            <MenuItem value="">
              <em>{t("connections.form.none")}</em>
            </MenuItem>
            {queues.map((q) => (
              <MenuItem key={q.id} value={q.id}>
                <QueueDot color={q.color} />
                {q.name}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
    </Box>
  );
}

export function MessagesPanel({ control }: Ctl) {
  const { t } = useTranslation();
  const text = (name: "greetingMessage" | "complationMessage" | "outOfHoursMessage" | "ratingMessage") => (
    <FormTextField
      control={control}
      name={name}
      label={t(`connections.form.${name}`)}
      helperText={t(`connections.form.${name}Help`)}
      multiline
      minRows={2}
      maxRows={6}
      fullWidth
      slotProps={{ htmlInput: { "data-testid": `connection-${name}` } }}
    />
  );
  return (
    <Box sx={{ display: "grid", gap: 2 }}>
      {text("greetingMessage")}
      {text("complationMessage")}
      {text("outOfHoursMessage")}
      {text("ratingMessage")}
    </Box>
  );
}

export function AutomationPanel({ control }: Ctl) {
  const { t } = useTranslation();
  const num = (name: "expiresTicket" | "timeUseBotQueues" | "maxUseBotQueues") => (
    <FormTextField
      control={control}
      name={name}
      parse={toInt}
      type="number"
      label={t(`connections.form.${name}`)}
      helperText={t(`connections.form.${name}Help`)}
      slotProps={{ htmlInput: { min: 0, step: 1, "data-testid": `connection-${name}` } }}
    />
  );
  return (
    <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" }, gap: 2, alignItems: "start" }}>
      {num("expiresTicket")}
      <Box sx={{ display: { xs: "none", sm: "block" } }} />
      <Box sx={{ gridColumn: "1 / -1" }}>
        <FormTextField
          control={control}
          name="expiresInactiveMessage"
          label={t("connections.form.expiresInactiveMessage")}
          helperText={t("connections.form.expiresInactiveMessageHelp")}
          multiline
          minRows={3}
          maxRows={8}
          fullWidth
          slotProps={{ htmlInput: { "data-testid": "connection-expiresInactiveMessage" } }}
        />
      </Box>
      {num("timeUseBotQueues")}
      {num("maxUseBotQueues")}
    </Box>
  );
}

export function IntegrationPanel({
  control,
  prompts,
  connectionId,
  tokenHint,
}: Ctl & { prompts: PromptOption[] | null; connectionId: number | null; tokenHint: string }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "grid", gap: 2 }}>
      {prompts && prompts.length > 0 && (
        <Controller
          control={control}
          name="promptId"
          render={({ field }) => (
            <TextField select label={t("connections.form.prompt")} value={field.value ?? ""} onChange={(e) => field.onChange(toId(e.target.value))} helperText={t("connections.form.promptHelp")}
              slotProps={{ select: { SelectDisplayProps: { "data-testid": "connection-prompt" } as object } }}
            >
              <MenuItem value="">
                <em>{t("connections.form.none")}</em>
              </MenuItem>
              {prompts.map((p) => (
                <MenuItem key={p.id} value={p.id}>
                  {p.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      )}
      <IntegrationSelect control={control} name="integrationId" />
      <ApiTokenField connectionId={connectionId} tokenHint={tokenHint} />
    </Box>
  );
}
