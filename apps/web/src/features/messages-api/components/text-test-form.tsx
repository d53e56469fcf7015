import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { FormTextField } from "../../../components/form-text-field";
import { sendText } from "../api/send-message";
import { TestFormFrame, useSendOutcome } from "./test-form-frame";

const REQUIRED = "messagesApi.test.required";
const schema = z.object({
  token: z.string().trim().min(1, REQUIRED),
  number: z.string().trim().min(1, REQUIRED),
  body: z.string().trim().min(1, REQUIRED),
});
type Values = z.infer<typeof schema>;

/** Test form for a text message: token, number, body; calls the public endpoint and shows its answer. */
export function TextTestForm() {
  const { t } = useTranslation();
  const { outcome, run } = useSendOutcome();
  const { control, handleSubmit, formState } = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { token: "", number: "", body: "" } });

  const submit = handleSubmit((v) => run(() => sendText(v.token, { number: v.number, body: v.body })));

  return (
    <TestFormFrame title={t("messagesApi.test.textTitle")} testId="text-test-form" onSubmit={submit} submitting={formState.isSubmitting} outcome={outcome}>
      <FormTextField control={control} name="token" label={t("messagesApi.test.token")} size="small" required autoComplete="off" helperText={t("messagesApi.test.tokenHelp")} />
      <FormTextField control={control} name="number" label={t("messagesApi.test.number")} size="small" required helperText={t("messagesApi.test.numberHelp")} inputMode="tel" />
      <FormTextField control={control} name="body" label={t("messagesApi.test.body")} size="small" required multiline minRows={3} />
    </TestFormFrame>
  );
}
