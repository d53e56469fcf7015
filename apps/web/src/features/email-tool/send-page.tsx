import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, CircularProgress, Paper } from "@mui/material";
import SendIcon from "@mui/icons-material/Send";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import { z } from "zod";
import { EMAIL_TOOL_MAX_RECIPIENTS, EMAIL_TOOL_MESSAGE_MAX, EMAIL_TOOL_SUBJECT_MAX, invalidRecipients, MSG, splitRecipients } from "@atende/shared";
import { PageHeading } from "../../components/page-heading";
import { FormTextField } from "../../components/form-text-field";
import { errorText } from "../../lib/toast-error";
import { logFailure } from "../../lib/log-failure";
import { ApiError } from "../../lib/api";
import { sendEmail, sentEmailKeys } from "./api/email-tool";
import { SendResults, type SendResult } from "./components/send-results";

/** The form's rules: recipients comma-separated, each a valid address (the invalid ones named), at most 100. */
function sendForm(t: TFunction) {
  return z.object({
    recipients: z.string().superRefine((text, ctx) => {
      const list = splitRecipients(text);
      if (list.length === 0) return ctx.addIssue({ code: "custom", message: MSG.required });
      const invalid = invalidRecipients(list);
      if (invalid.length) return ctx.addIssue({ code: "custom", message: t("emailTool.send.invalid", { addresses: invalid.join(", ") }) });
      if (list.length > EMAIL_TOOL_MAX_RECIPIENTS) ctx.addIssue({ code: "custom", message: t("emailTool.send.tooMany", { max: EMAIL_TOOL_MAX_RECIPIENTS }) });
    }),
    subject: z.string().trim().min(1, MSG.required).max(EMAIL_TOOL_SUBJECT_MAX, MSG.tooLong),
    message: z.string().trim().min(1, MSG.required).max(EMAIL_TOOL_MESSAGE_MAX, MSG.tooLong),
  });
}
type Form = z.infer<ReturnType<typeof sendForm>>;

/**
 * 'Disparo de Emails' (/Email, spec 3 §2): one POST /enviar-email per recipient, in order; the
 * recipients the server refused are listed with the reason (the rest are queued and sent by the server).
 */
export default function EmailToolSendPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [results, setResults] = useState<SendResult[] | null>(null);
  const { control, handleSubmit, reset, setValue, formState } = useForm<Form>({
    resolver: zodResolver(sendForm(t)),
    defaultValues: { recipients: "", subject: "", message: "" },
  });

  const submit = handleSubmit(async (values) => {
    const out: SendResult[] = [];
    const recipients = [...new Set(splitRecipients(values.recipients))];
    for (const [index, email] of recipients.entries()) {
      try {
        await sendEmail({ email, assunto: values.subject, mensagem: values.message });
        out.push({ email, error: null });
      } catch (err) {
        logFailure("e-mail tool: send refused", err, { email });
        out.push({ email, error: errorText(err) });
        // the company's hourly limit refuses the rest alike: they are not tried
        if (err instanceof ApiError && err.code === "ERR_EMAIL_TOOL_RATE_LIMIT") {
          for (const rest of recipients.slice(index + 1)) out.push({ email: rest, error: errorText(err) });
          break;
        }
      }
    }
    setResults(out);
    void queryClient.invalidateQueries({ queryKey: sentEmailKeys.all });
    const refused = out.filter((r) => r.error !== null).map((r) => r.email);
    // only the refused stay in the form, so sending again never repeats one already queued
    if (refused.length === 0) reset();
    else setValue("recipients", refused.join(", "));
  });

  return (
    <>
      <PageHeading title={t("emailTool.send.title")} />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 760 }}>
        <Box component="form" onSubmit={submit} noValidate sx={{ display: "grid", gap: 2 }}>
          <FormTextField
            control={control}
            name="recipients"
            label={t("emailTool.send.recipients")}
            helperText={t("emailTool.send.recipientsHelp")}
            required
            fullWidth
            multiline
            minRows={2}
          />
          <FormTextField control={control} name="subject" label={t("emailTool.send.subject")} required fullWidth />
          <FormTextField control={control} name="message" label={t("emailTool.send.message")} required fullWidth multiline minRows={6} />
          {results && <SendResults results={results} />}
          <Box sx={{ display: "flex", justifyContent: "flex-end" }}>
            <Button
              type="submit"
              variant="contained"
              disabled={formState.isSubmitting}
              startIcon={formState.isSubmitting ? <CircularProgress size={16} /> : <SendIcon />}
            >
              {t("emailTool.send.submit")}
            </Button>
          </Box>
        </Box>
      </Paper>
    </>
  );
}
