import { Alert, AlertTitle, Box } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { ExternalSendResponse } from "@atende/shared";
import i18n from "../../../lib/i18n";
import { ApiError } from "../../../lib/api";
import { errorText } from "../../../lib/toast-error";

export type SendOutcome = { ok: true; data: ExternalSendResponse } | { ok: false; error: unknown };

/** This page's reading of an error code first (a 401 here is a bad token, not an expired session), then the app's. */
function describe(err: unknown): string {
  if (err instanceof ApiError && err.code && i18n.exists(`messagesApi.errors.${err.code}`)) return i18n.t(`messagesApi.errors.${err.code}`);
  return errorText(err);
}

/** The answer of a test send: the created ticket, or the translated error with its code and status. */
export function SendResult({ outcome }: { outcome: SendOutcome | null }) {
  const { t } = useTranslation();
  if (!outcome) return null;
  if (outcome.ok) {
    const { data } = outcome;
    return (
      <Alert severity="success" data-testid="send-result" data-result="success">
        <AlertTitle>{t("messagesApi.test.success")}</AlertTitle>
        {t("messagesApi.test.successDetail", { ticketId: data.ticketId, contactId: data.contactId, count: data.messages.length })}
      </Alert>
    );
  }
  const err = outcome.error;
  const status = err instanceof ApiError ? err.status : 0;
  const code = err instanceof ApiError ? err.code : undefined;
  const serverText = err instanceof ApiError ? err.body.message : undefined;
  const text = describe(err);
  return (
    <Alert severity="error" data-testid="send-result" data-result="error" data-code={code ?? ""}>
      <AlertTitle>{status ? t("messagesApi.test.failure", { status }) : text}</AlertTitle>
      {status > 0 && <Box>{text}</Box>}
      {(code || (serverText && serverText !== text)) && (
        <Box component="code" sx={{ display: "block", mt: 0.5, fontSize: 12, opacity: 0.85, wordBreak: "break-word" }}>
          {[code, serverText && serverText !== text ? serverText : null].filter(Boolean).join(" · ")}
        </Box>
      )}
    </Alert>
  );
}
