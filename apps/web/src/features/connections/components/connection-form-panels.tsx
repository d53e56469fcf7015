import { Box, Button, FormControlLabel, FormHelperText, IconButton, InputAdornment, MenuItem, Switch, TextField, Tooltip } from "@mui/material";
import AutorenewIcon from "@mui/icons-material/Autorenew";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import type { Queue, WhatsappProvider } from "@atende/shared";
import { Controller, type Control, type UseFormSetValue } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { toast } from "react-toastify";
import { QueueDot, queueOptions } from "../../../components/queue-options";
import { formMessage } from "../../../components/form-message";
import { FormTextField } from "../../../components/form-text-field";
import type { PromptOption } from "../api/connections";
import { generateToken, type ConnectionFormIn } from "./connection-form-schema";
import { ProviderLabel } from "./provider-label";
import { logFailure } from "../../../lib/log-failure";
import { toastError } from "../../../lib/toast-error";

type Ctl = { control: Control<ConnectionFormIn> };
const toId = (v: unknown) => (v === "" || v === null || v === undefined ? null : Number(v));
const toInt = (v: string) => (v === "" ? "" : Math.trunc(Number(v)));
/** Providers a connection can be created with here; official numbers come from the official connections sync. */
const CREATABLE: WhatsappProvider[] = ["baileys", "sandbox"];

export function GeneralPanel({ control, queues, isNew, isOfficial }: Ctl & { queues: Queue[]; isNew: boolean; isOfficial: boolean }) {
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
            {(isNew ? CREATABLE : [field.value ?? "sandbox"]).map((p) => (
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

export function IntegrationPanel({ control, setValue, prompts }: Ctl & { setValue: UseFormSetValue<ConnectionFormIn>; prompts: PromptOption[] | null }) {
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
      <Controller
        control={control}
        name="token"
        render={({ field, fieldState }) => (
          <TextField
            label={t("connections.form.token")}
            value={field.value ?? ""}
            onChange={(e) => field.onChange(e.target.value.trim())}
            error={!!fieldState.error}
            helperText={formMessage(fieldState.error?.message) ?? t("connections.form.tokenHelp")}
            slotProps={{
              htmlInput: { "data-testid": "connection-token", spellCheck: false, style: { fontFamily: "monospace" } },
              input: {
                endAdornment: (
                  <InputAdornment position="end">
                    <Tooltip title={t("connections.form.copyToken")}>
                      <span>
                        <IconButton
                          aria-label={t("connections.form.copyToken")}
                          disabled={!field.value}
                          onClick={() => {
                            void navigator.clipboard
                              ?.writeText(field.value ?? "")
                              .then(() => toast.success(t("connections.form.tokenCopied"), { autoClose: 2000 }))
                              .catch((err: unknown) => {
                                logFailure("copying the connection token failed", err);
                                toastError(err);
                              });
                          }}
                          data-testid="copy-token"
                        >
                          <ContentCopyIcon fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                  </InputAdornment>
                ),
              },
            }}
          />
        )}
      />
      <Box>
        <Button startIcon={<AutorenewIcon />} variant="outlined" onClick={() => setValue("token", generateToken(), { shouldDirty: true })} data-testid="generate-token">
          {t("connections.form.generateToken")}
        </Button>
      </Box>
    </Box>
  );
}
