import { useRef } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, FormHelperText, Typography } from "@mui/material";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { formMessage } from "../../../components/form-message";
import { FormTextField } from "../../../components/form-text-field";
import { sendMedia } from "../api/send-message";
import { TestFormFrame, useSendOutcome } from "./test-form-frame";

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
export function MediaTestForm() {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const { outcome, run } = useSendOutcome();
  const { control, handleSubmit, formState } = useForm<In, unknown, Out>({
    resolver: zodResolver(schema),
    defaultValues: { token: "", number: "", body: "", file: null },
  });

  const submit = handleSubmit((v) => run(() => sendMedia(v.token, { number: v.number, body: v.body, files: v.file ? [v.file] : [] })));

  return (
    <TestFormFrame title={t("messagesApi.test.mediaTitle")} testId="media-test-form" onSubmit={submit} submitting={formState.isSubmitting} outcome={outcome}>
      <FormTextField control={control} name="token" label={t("messagesApi.test.token")} size="small" required autoComplete="off" helperText={t("messagesApi.test.tokenHelp")} />
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
    </TestFormFrame>
  );
}
