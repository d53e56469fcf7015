import { useEffect, useState } from "react";
import { Badge, Box, Button, CircularProgress, DialogActions, DialogContent, DialogTitle, Tab, Tabs } from "@mui/material";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { canVisit, type Whatsapp, type WhatsappUpdateInput } from "@atende/shared";
import { useCurrentUser } from "../../../lib/session";
import { useForm, type FieldErrors, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { ApiError } from "../../../lib/api";
import { toastError } from "../../../lib/toast-error";
import { connectionKeys, createConnection, promptsQuery, providersQuery, queuesQuery, updateConnection } from "../api/connections";
import { AutomationPanel, GeneralPanel, IntegrationPanel, MessagesPanel } from "./connection-form-panels";
import {
  connectionFormSchema,
  EMPTY_FORM,
  formFromConnection,
  officialFormSchema,
  TAB_FIELDS,
  tabOf,
  TABS,
  type ConnectionFormIn,
  type ConnectionFormOut,
  type FormField,
} from "./connection-form-schema";

interface Props {
  /** The connection as GET /whatsapp/{id} answers it (with its token hint); null adds one. */
  connection: Whatsapp | null;
  onClose(): void;
  onCreated?(w: Whatsapp): void;
}

/** The connection form (spec 1-core §3 WhatsApp connection), its fields grouped in four tabs. */
export function ConnectionForm({ connection, onClose, onCreated }: Props) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const isOfficial = connection?.isOfficial === true || connection?.provider === "official";
  const [tab, setTab] = useState(0);
  const queues = useQuery(queuesQuery());
  // GET /prompt exists only where AI prompts are installed and allowed: a failure hides the choice.
  // AI prompts are offered to those who may use them (the /prompts gate); others never ask
  const me = useCurrentUser();
  const prompts = useQuery({ ...promptsQuery(), enabled: canVisit(me, me.company.plan, "/prompts") });
  const { control, handleSubmit, setError, setValue, getValues, formState } = useForm<ConnectionFormIn, unknown, ConnectionFormOut>({
    resolver: zodResolver(isOfficial ? officialFormSchema : connectionFormSchema) as Resolver<ConnectionFormIn, unknown, ConnectionFormOut>,
    defaultValues: connection ? formFromConnection(connection) : EMPTY_FORM,
  });
  const providers = useQuery(providersQuery()).data?.providers;
  // A new connection starts on a type this server offers (no sandbox in production unless enabled).
  useEffect(() => {
    const first = providers?.[0];
    if (!connection && first && !providers.includes(getValues("provider") ?? "sandbox")) setValue("provider", first);
  }, [connection, providers, getValues, setValue]);

  const showFirstError = (errors: FieldErrors<ConnectionFormIn>) => {
    const first = TABS.flatMap((name) => TAB_FIELDS[name]).find((f) => errors[f]);
    if (first) setTab(tabOf(first));
  };

  const save = async (values: ConnectionFormOut) => {
    // The server keeps the only default connection default; say so instead of silently ignoring the switch.
    if (connection?.isDefault && !values.isDefault) {
      setError("isDefault", { message: "backendErrors.ERR_NO_OTHER_WHATSAPP" });
      setTab(0);
      return;
    }
    try {
      let created: Whatsapp | null = null;
      if (connection) {
        const { provider: _provider, name, ...rest } = values;
        const body: WhatsappUpdateInput = isOfficial ? rest : { ...rest, name };
        await updateConnection(connection.id, body);
      } else {
        created = await createConnection(values);
      }
      await qc.invalidateQueries({ queryKey: connectionKeys.list });
      toast.success(t("connections.toasts.saved"));
      onClose();
      // A new connection starts its session at once: its QR code follows.
      if (created) onCreated?.(created);
    } catch (err) {
      if (err instanceof ApiError) {
        if (err.code === "ERR_WAPP_GREETING_REQUIRED") setError("greetingMessage", { message: "backendErrors.ERR_WAPP_GREETING_REQUIRED" });
        if (err.code === "ERR_NO_OTHER_WHATSAPP") setError("isDefault", { message: "backendErrors.ERR_NO_OTHER_WHATSAPP" });
        for (const [field, message] of Object.entries(err.body.fields ?? {})) {
          if (field in EMPTY_FORM) setError(field as FormField, { message });
        }
        const fields = [
          ...(err.code === "ERR_WAPP_GREETING_REQUIRED" ? ["greetingMessage"] : []),
          ...(err.code === "ERR_NO_OTHER_WHATSAPP" ? ["isDefault"] : []),
          ...Object.keys(err.body.fields ?? {}),
        ];
        if (fields.length) setTab(tabOf(fields[0]!));
      }
      toastError(err);
    }
  };

  const errors = formState.errors;
  const tabHasError = (i: number) => TAB_FIELDS[TABS[i]!].some((f) => errors[f]);
  const busy = formState.isSubmitting;
  return (
    <Box component="form" onSubmit={handleSubmit(save, showFirstError)} noValidate sx={{ display: "flex", flexDirection: "column", minHeight: 0 }}>
      <DialogTitle id="connection-modal-title">{t(connection ? "connections.form.editTitle" : "connections.form.addTitle")}</DialogTitle>
      <Tabs value={tab} onChange={(_, v: number) => setTab(v)} variant="scrollable" scrollButtons="auto" sx={{ px: 2, borderBottom: 1, borderColor: "divider" }}>
        {TABS.map((name, i) => (
          <Tab
            key={name}
            data-testid={`tab-${name}`}
            label={
              <Badge color="error" variant="dot" invisible={!tabHasError(i)} sx={{ "& .MuiBadge-dot": { right: -6 } }}>
                {t(`connections.form.tabs.${name}`)}
              </Badge>
            }
          />
        ))}
      </Tabs>
      {/* One height for every tab, so the dialog does not jump while switching. */}
      <DialogContent sx={{ height: { sm: 480 }, pt: "20px !important" }}>
        {tab === 0 && <GeneralPanel control={control} queues={queues.data ?? []} isNew={!connection} isOfficial={isOfficial} providers={providers ?? []} />}
        {tab === 1 && <MessagesPanel control={control} />}
        {tab === 2 && <AutomationPanel control={control} />}
        {tab === 3 && <IntegrationPanel
            control={control}
            prompts={prompts.isSuccess ? prompts.data : null}
            connectionId={connection?.id ?? null}
            tokenHint={connection?.tokenHint ?? ""}
          />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t("common.cancel")}
        </Button>
        <Button type="submit" variant="contained" disabled={busy} startIcon={busy ? <CircularProgress size={16} /> : undefined} data-testid="connection-save">
          {t("common.save")}
        </Button>
      </DialogActions>
    </Box>
  );
}
