import { useEffect, useRef, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, CircularProgress, FormHelperText, Paper, Typography } from "@mui/material";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import SendIcon from "@mui/icons-material/Send";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { formMessage } from "../../../components/form-message";
import { FormTextField } from "../../../components/form-text-field";
import { sendMedia } from "../api/send-message";
import { SendResult, type SendOutcome } from "./send-result";

const REQUIRED = "messagesApi.test.required";
const schema = z.object({
  token: z.string().trim().min(1, REQUIRED),
  number: z.string().trim().min(1, REQUIRED),
  body: z.string(),
  file: z.instanceof(File, { message: "messagesApi.test.fileRequired" }).nullable().refine((f) => f !== null, "messagesApi.test.fileRequired"),
});
type In = z.input<typeof schema>;
type Out = z.output<typeof schema>;

/** Test form for a file (multipart, field `medias`): token, number, file and an optional caption. */
export function MediaTestForm({ token }: { token: string }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [outcome, setOutcome] = useState<SendOutcome | null>(null);
  const { control, handleSubmit, setValue, formState } = useForm<In, unknown, Out>({
    resolver: zodResolver(schema),
    defaultValues: { token: "", number: "", body: "", file: null },
  });
  useEffect(() => {
    if (token) setValue("token", token, { shouldValidate: true });
  }, [token, setValue]);

  const submit = handleSubmit(async (v) => {
    setOutcome(null);
    try {
      setOutcome({ ok: true, data: await sendMedia(v.token, { number: v.number, body: v.body, files: v.file ? [v.file] : [] }) });
    } catch (error) {
      setOutcome({ ok: false, error });
    }
  });

  return (
    <Paper variant="outlined" component="form" onSubmit={submit} noValidate sx={{ p: 2, display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 2, alignContent: "start", minWidth: 0 }} aria-label={t("messagesApi.test.mediaTitle")} data-testid="media-test-form">
      <Typography variant="subtitle1" fontWeight={600}>
        {t("messagesApi.test.mediaTitle")}
      </Typography>
      <FormTextField control={control} name="token" label={t("messagesApi.test.token")} size="small" required autoComplete="off" />
      <FormTextField control={control} name="number" label={t("messagesApi.test.number")} size="small" required helperText={t("messagesApi.test.numberHelp")} inputMode="tel" />
      <Controller
        control={control}
        name="file"
        render={({ field, fieldState }) => (
          <Box>
            <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, minWidth: 0 }}>
              <Button variant="outlined" startIcon={<AttachFileIcon />} onClick={() => input.current?.click()} sx={{ flexShrink: 0 }}>
                {t("messagesApi.test.chooseFile")}
              </Button>
              <Typography variant="body2" color={field.value ? "text.primary" : "text.secondary"} noWrap data-testid="media-file-name">
                {field.value ? field.value.name : t("messagesApi.test.noFile")}
              </Typography>
            </Box>
            <input
              ref={input}
              type="file"
              hidden
              aria-label={t("messagesApi.test.file")}
              data-testid="media-file"
              onChange={(e) => {
                field.onChange(e.target.files?.[0] ?? null);
                e.target.value = "";
              }}
            />
            {fieldState.error && <FormHelperText error>{formMessage(fieldState.error.message)}</FormHelperText>}
          </Box>
        )}
      />
      <FormTextField control={control} name="body" label={t("messagesApi.test.caption")} size="small" />
      <Box sx={{ display: "flex", justifyContent: "flex-end" }}>
        <Button type="submit" variant="contained" disabled={formState.isSubmitting} startIcon={formState.isSubmitting ? <CircularProgress size={16} /> : <SendIcon />}>
          {t("messagesApi.test.send")}
        </Button>
      </Box>
      <SendResult outcome={outcome} />
    </Paper>
  );
}
