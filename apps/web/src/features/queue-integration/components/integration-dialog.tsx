import { useEffect, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Box, Button, Dialog, DialogContent, DialogTitle, MenuItem } from "@mui/material";
import { useTranslation } from "react-i18next";
import { DIALOGFLOW_LANGUAGES, QUEUE_INTEGRATION_TYPES, queueIntegrationInput, TYPEBOT_DEFAULTS, type QueueIntegration } from "@atende/shared";
import type { z } from "zod";
import { DialogFormActions } from "../../../components/dialog-form-actions";
import { FormTextField } from "../../../components/form-text-field";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { createIntegration, testDialogflowSession, updateIntegration } from "../api/queue-integrations";

type FormIn = z.input<typeof queueIntegrationInput>;
type FormOut = z.output<typeof queueIntegrationInput>;

interface Props {
  open: boolean;
  record: QueueIntegration | null;
  onClose(): void;
  onSaved(record: QueueIntegration): void;
}

const EMPTY: FormIn = {
  type: "typebot",
  name: "",
  projectName: "",
  jsonContent: "",
  language: "pt-BR",
  urlN8N: "",
  typebotSlug: "",
  typebotExpires: TYPEBOT_DEFAULTS.expires,
  typebotDelayMessage: TYPEBOT_DEFAULTS.delayMessage,
  typebotKeywordFinish: "",
  typebotKeywordRestart: "",
  typebotUnknownMessage: "",
  typebotRestartMessage: "",
};

/** The form of a stored integration: its key is never sent back, so the field starts empty (empty keeps it). */
function formOf(r: QueueIntegration): FormIn {
  return { ...EMPTY, ...r, language: r.language as FormIn["language"], jsonContent: "" };
}

/** Add or edit a queue integration (spec 3 §2, §3, §5): the fields follow the type; Dialogflow's key can be tested. */
export function IntegrationDialog({ open, record, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [testing, setTesting] = useState(false);
  const [testReply, setTestReply] = useState<string | null>(null);
  const { control, handleSubmit, reset, formState, getValues } = useForm<FormIn, unknown, FormOut>({ resolver: zodResolver(queueIntegrationInput), defaultValues: EMPTY });
  const type = useWatch({ control, name: "type" });

  useEffect(() => {
    if (!open) return;
    setTestReply(null);
    reset(record ? formOf(record) : EMPTY);
  }, [open, record, reset]);

  const submit = handleSubmit(async (values) => {
    try {
      const saved = record ? await updateIntegration(record.id, values) : await createIntegration(values);
      toast.success(t("queueIntegration.saved"));
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    }
  });

  async function test() {
    const v = getValues();
    setTesting(true);
    setTestReply(null);
    try {
      const res = await testDialogflowSession({ projectName: v.projectName ?? "", jsonContent: v.jsonContent ?? "", language: v.language ?? "pt-BR", id: record?.id });
      setTestReply(res.reply);
      toast.success(t("queueIntegration.testOk"));
    } catch (err) {
      toastError(err);
    } finally {
      setTesting(false);
    }
  }

  const two = { display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } } as const;
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle>{record ? t("queueIntegration.dialog.editTitle") : t("queueIntegration.dialog.addTitle")}</DialogTitle>
        <DialogContent dividers sx={{ display: "grid", gap: 2 }}>
          <Box sx={two}>
            <FormTextField control={control} name="type" label={t("queueIntegration.dialog.type")} select required>
              {QUEUE_INTEGRATION_TYPES.map((ty) => (
                <MenuItem key={ty} value={ty}>
                  {t(`queueIntegration.types.${ty}`)}
                </MenuItem>
              ))}
            </FormTextField>
            <FormTextField control={control} name="name" label={t("queueIntegration.dialog.name")} required autoFocus />
          </Box>
          {type === "dialogflow" && (
            <>
              <Box sx={two}>
                <FormTextField control={control} name="projectName" label={t("queueIntegration.dialog.projectName")} required />
                <FormTextField control={control} name="language" label={t("queueIntegration.dialog.language")} select>
                  {DIALOGFLOW_LANGUAGES.map((l) => (
                    <MenuItem key={l} value={l}>
                      {t(`queueIntegration.languages.${l}`)}
                    </MenuItem>
                  ))}
                </FormTextField>
              </Box>
              <FormTextField
                control={control}
                name="jsonContent"
                label={t("queueIntegration.dialog.jsonContent")}
                required={!record}
                multiline
                minRows={4}
                maxRows={10}
                placeholder='{ "type": "service_account", ... }'
                helperText={record?.jsonContent ? t("queueIntegration.dialog.jsonKept", { mask: record.jsonContent }) : t("queueIntegration.dialog.jsonHelp")}
              />
              <Box sx={{ display: "flex", gap: 2, alignItems: "center", flexWrap: "wrap" }}>
                <Button variant="outlined" onClick={() => void test()} disabled={testing}>
                  {t("queueIntegration.dialog.test")}
                </Button>
                {testReply !== null && (
                  <Alert severity="success" sx={{ flex: 1 }}>
                    {testReply || t("queueIntegration.dialog.testEmpty")}
                  </Alert>
                )}
              </Box>
            </>
          )}
          {type !== "dialogflow" && (
            <FormTextField
              control={control}
              name="urlN8N"
              label={t(type === "typebot" ? "queueIntegration.dialog.typebotUrl" : "queueIntegration.dialog.url")}
              required
              placeholder="https://"
              helperText={t(`queueIntegration.dialog.urlHelp.${type ?? "webhook"}`)}
            />
          )}
          {type === "typebot" && (
            <>
              <Box sx={two}>
                <FormTextField control={control} name="typebotSlug" label={t("queueIntegration.dialog.typebotSlug")} required />
                <FormTextField control={control} name="typebotExpires" label={t("queueIntegration.dialog.typebotExpires")} type="number" parse={Number} />
              </Box>
              <Box sx={two}>
                <FormTextField control={control} name="typebotDelayMessage" label={t("queueIntegration.dialog.typebotDelayMessage")} type="number" parse={Number} />
                <FormTextField control={control} name="typebotKeywordFinish" label={t("queueIntegration.dialog.typebotKeywordFinish")} />
              </Box>
              <Box sx={two}>
                <FormTextField control={control} name="typebotKeywordRestart" label={t("queueIntegration.dialog.typebotKeywordRestart")} />
                <FormTextField control={control} name="typebotRestartMessage" label={t("queueIntegration.dialog.typebotRestartMessage")} />
              </Box>
              <FormTextField control={control} name="typebotUnknownMessage" label={t("queueIntegration.dialog.typebotUnknownMessage")} />
            </>
          )}
        </DialogContent>
        <DialogFormActions onCancel={onClose} submitting={formState.isSubmitting} />
      </form>
    </Dialog>
  );
}
