import { useState, type FormEventHandler, type ReactNode } from "react";
import { Box, Button, CircularProgress, Paper, Typography } from "@mui/material";
import SendIcon from "@mui/icons-material/Send";
import { useTranslation } from "react-i18next";
import type { ExternalSendResponse } from "@atende/shared";
import { SendResult, type SendOutcome } from "./send-result";

/** The outcome of the last test send, and a way to run one (its answer or its error is kept). */
export function useSendOutcome() {
  const [outcome, setOutcome] = useState<SendOutcome | null>(null);
  const run = async (send: () => Promise<ExternalSendResponse>) => {
    setOutcome(null);
    try {
      setOutcome({ ok: true, data: await send() });
    } catch (error) {
      setOutcome({ ok: false, error });
    }
  };
  return { outcome, run };
}

interface Props {
  title: string;
  testId: string;
  onSubmit: FormEventHandler;
  submitting: boolean;
  outcome: SendOutcome | null;
  children: ReactNode;
}

/** A test form of the page: its title, its fields, the send button and the answer below. */
export function TestFormFrame({ title, testId, onSubmit, submitting, outcome, children }: Props) {
  const { t } = useTranslation();
  return (
    <Paper
      variant="outlined"
      component="form"
      onSubmit={onSubmit}
      noValidate
      sx={{ p: 2, display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 2, alignContent: "start", minWidth: 0 }}
      aria-label={title}
      data-testid={testId}
    >
      <Typography variant="subtitle1" fontWeight={600}>
        {title}
      </Typography>
      {children}
      <Box sx={{ display: "flex", justifyContent: "flex-end" }}>
        <Button type="submit" variant="contained" disabled={submitting} startIcon={submitting ? <CircularProgress size={16} /> : <SendIcon />}>
          {t("messagesApi.test.send")}
        </Button>
      </Box>
      <SendResult outcome={outcome} />
    </Paper>
  );
}
