import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, CircularProgress, Paper, Typography } from "@mui/material";
import SendIcon from "@mui/icons-material/Send";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { FormTextField } from "../../../components/form-text-field";
import { sendText } from "../api/send-message";
import { SendResult, type SendOutcome } from "./send-result";

const REQUIRED = "messagesApi.test.required";
const schema = z.object({
  token: z.string().trim().min(1, REQUIRED),
  number: z.string().trim().min(1, REQUIRED),
  body: z.string().trim().min(1, REQUIRED),
});
type Values = z.infer<typeof schema>;

/** Test form for a text message: token, number, body; calls the public endpoint and shows its answer. */
export function TextTestForm({ token }: { token: string }) {
  const { t } = useTranslation();
  const [outcome, setOutcome] = useState<SendOutcome | null>(null);
  const { control, handleSubmit, setValue, formState } = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { token: "", number: "", body: "" } });
  useEffect(() => {
    if (token) setValue("token", token, { shouldValidate: true });
  }, [token, setValue]);

  const submit = handleSubmit(async (v) => {
    setOutcome(null);
    try {
      setOutcome({ ok: true, data: await sendText(v.token, { number: v.number, body: v.body }) });
    } catch (error) {
      setOutcome({ ok: false, error });
    }
  });

  return (
    <Paper variant="outlined" component="form" onSubmit={submit} noValidate sx={{ p: 2, display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 2, alignContent: "start", minWidth: 0 }} aria-label={t("messagesApi.test.textTitle")} data-testid="text-test-form">
      <Typography variant="subtitle1" fontWeight={600}>
        {t("messagesApi.test.textTitle")}
      </Typography>
      <FormTextField control={control} name="token" label={t("messagesApi.test.token")} size="small" required autoComplete="off" />
      <FormTextField control={control} name="number" label={t("messagesApi.test.number")} size="small" required helperText={t("messagesApi.test.numberHelp")} inputMode="tel" />
      <FormTextField control={control} name="body" label={t("messagesApi.test.body")} size="small" required multiline minRows={3} />
      <Box sx={{ display: "flex", justifyContent: "flex-end" }}>
        <Button type="submit" variant="contained" disabled={formState.isSubmitting} startIcon={formState.isSubmitting ? <CircularProgress size={16} /> : <SendIcon />}>
          {t("messagesApi.test.send")}
        </Button>
      </Box>
      <SendResult outcome={outcome} />
    </Paper>
  );
}
