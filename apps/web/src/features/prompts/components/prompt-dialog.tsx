import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Box, Dialog, DialogContent, DialogTitle, MenuItem, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import { PROMPT_DEFAULTS, PROMPT_VOICES, promptInput, type Prompt, type PromptInput } from "@atende/shared";
import { DialogFormActions } from "../../../components/dialog-form-actions";
import { formMessage } from "../../../components/form-message";
import { ApiError } from "../../../lib/api";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { createPrompt, fetchQueueChoices, promptKeys, updatePrompt } from "../api/prompts";

interface Props {
  open: boolean;
  record: Prompt | null;
  onClose(): void;
  onSaved(p: Prompt): void;
}

type Form = Record<"name" | "prompt" | "apiKey" | "baseUrl" | "model" | "voice" | "voiceKey" | "voiceRegion" | "maxTokens" | "temperature" | "maxMessages" | "queueId", string>;

const EMPTY: Form = {
  name: "",
  prompt: "",
  apiKey: "",
  baseUrl: PROMPT_DEFAULTS.baseUrl,
  model: PROMPT_DEFAULTS.model,
  voice: "texto",
  voiceKey: "",
  voiceRegion: "",
  maxTokens: String(PROMPT_DEFAULTS.maxTokens),
  temperature: String(PROMPT_DEFAULTS.temperature),
  maxMessages: String(PROMPT_DEFAULTS.maxMessages),
  queueId: "",
};

const fromPrompt = (p: Prompt): Form => ({
  name: p.name,
  prompt: p.prompt,
  apiKey: "",
  baseUrl: p.baseUrl,
  model: p.model,
  voice: p.voice,
  voiceKey: "",
  voiceRegion: p.voiceRegion,
  maxTokens: String(p.maxTokens),
  temperature: String(p.temperature),
  maxMessages: String(p.maxMessages),
  queueId: String(p.queueId),
});

/** Add/edit an AI prompt (spec 3 §3): every field; keys are typed, never shown back (only their last 4 characters). */
export function PromptDialog({ open, record, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof Form, string>>>({});
  const [saving, setSaving] = useState(false);
  const queues = useQuery({ queryKey: promptKeys.queues, queryFn: ({ signal }) => fetchQueueChoices(signal), enabled: open });
  useEffect(() => {
    if (!open) return;
    setForm(record ? fromPrompt(record) : EMPTY);
    setErrors({});
  }, [open, record]);

  const message = (m: string | undefined) => (m === "Informe o setor" ? t("prompts.errors.queue") : formMessage(m));
  const set = (key: keyof Form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const field = (key: keyof Form) => ({ value: form[key], onChange: set(key), error: !!errors[key], helperText: message(errors[key]) });

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const parsed = promptInput.safeParse({ ...form, queueId: form.queueId === "" ? undefined : Number(form.queueId) });
    const local: Partial<Record<keyof Form, string>> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) local[issue.path[0] as keyof Form] ??= issue.message;
    if (!record && !form.apiKey.trim()) local.apiKey = t("prompts.errors.apiKey");
    setErrors(local);
    if (Object.keys(local).length) return;
    setSaving(true);
    try {
      if (!parsed.success) return;
      const body: PromptInput = parsed.data;
      const saved = record ? await updatePrompt(record.id, body) : await createPrompt(body);
      toast.success(t(record ? "prompts.edited" : "prompts.added"));
      onSaved(saved);
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.body.fields) setErrors(err.body.fields as Partial<Record<keyof Form, string>>);
      toastError(err);
    } finally {
      setSaving(false);
    }
  }

  const keyHelp = (masked: string | undefined) => (record && masked ? t("prompts.dialog.keepKey", { key: masked }) : undefined);

  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth>
      <form onSubmit={(e) => void submit(e)} noValidate aria-label={t("prompts.dialog.addTitle")}>
        <DialogTitle>{record ? t("prompts.dialog.editTitle") : t("prompts.dialog.addTitle")}</DialogTitle>
        <DialogContent dividers>
          <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "repeat(6, 1fr)" } }}>
            <TextField label={t("prompts.fields.name")} required autoFocus {...field("name")} sx={{ gridColumn: { sm: "span 3" } }} />
            <TextField
              label={t("prompts.fields.apiKey")}
              required={!record}
              type="password"
              autoComplete="off"
              {...field("apiKey")}
              helperText={message(errors.apiKey) ?? keyHelp(record?.apiKey)}
              sx={{ gridColumn: { sm: "span 3" } }}
            />
            <TextField label={t("prompts.fields.prompt")} required multiline minRows={5} {...field("prompt")} helperText={message(errors.prompt) ?? t("prompts.dialog.promptHelp")} sx={{ gridColumn: { sm: "span 6" } }} />
            <TextField label={t("prompts.fields.baseUrl")} {...field("baseUrl")} helperText={message(errors.baseUrl) ?? t("prompts.dialog.baseUrlHelp")} sx={{ gridColumn: { sm: "span 4" } }} />
            <TextField label={t("prompts.fields.model")} {...field("model")} sx={{ gridColumn: { sm: "span 2" } }} />
            <TextField select label={t("prompts.fields.queue")} required {...field("queueId")} sx={{ gridColumn: { sm: "span 2" } }} slotProps={{ select: { SelectDisplayProps: { "data-testid": "prompt-queue" } as object } }}>
              {(queues.data ?? []).map((q) => (
                <MenuItem key={q.id} value={String(q.id)}>
                  {q.name}
                </MenuItem>
              ))}
            </TextField>
            <TextField label={t("prompts.fields.maxTokens")} type="number" {...field("maxTokens")} sx={{ gridColumn: { sm: "span 1" } }} />
            <TextField label={t("prompts.fields.temperature")} type="number" slotProps={{ htmlInput: { step: 0.1, min: 0, max: 2 } }} {...field("temperature")} sx={{ gridColumn: { sm: "span 1" } }} />
            <TextField label={t("prompts.fields.maxMessages")} type="number" {...field("maxMessages")} sx={{ gridColumn: { sm: "span 2" } }} />
            <TextField select label={t("prompts.fields.voice")} {...field("voice")} sx={{ gridColumn: { sm: "span 2" } }} slotProps={{ select: { SelectDisplayProps: { "data-testid": "prompt-voice" } as object } }}>
              {PROMPT_VOICES.map((v) => (
                <MenuItem key={v} value={v}>
                  {v === "texto" ? t("prompts.voiceText") : v}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label={t("prompts.fields.voiceKey")}
              type="password"
              autoComplete="off"
              disabled={form.voice === "texto"}
              {...field("voiceKey")}
              helperText={message(errors.voiceKey) ?? keyHelp(record?.voiceKey)}
              sx={{ gridColumn: { sm: "span 2" } }}
            />
            <TextField label={t("prompts.fields.voiceRegion")} disabled={form.voice === "texto"} placeholder="brazilsouth" {...field("voiceRegion")} sx={{ gridColumn: { sm: "span 2" } }} />
          </Box>
        </DialogContent>
        <DialogFormActions onCancel={onClose} submitting={saving} />
      </form>
    </Dialog>
  );
}
