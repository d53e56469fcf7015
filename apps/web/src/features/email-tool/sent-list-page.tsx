import { useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Box, Button, Card, CardActions, CardContent, CircularProgress, Pagination, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { SENT_EMAIL_PAGE_SIZE, SENT_EMAIL_PREVIEW_CHARS, type SentEmail } from "@atende/shared";
import { PageHeading } from "../../components/page-heading";
import { EmptyState } from "../../components/empty-state";
import { errorText } from "../../lib/toast-error";
import { formatInZone, useCompanyTimeZone } from "../../lib/time-zone";
import { fetchSentEmails, sentEmailKeys } from "./api/email-tool";
import { SentEmailDialog } from "./components/sent-email-dialog";
import { SentEmailStatusChip } from "./components/sent-email-status-chip";

const preview = (text: string) => (text.length > SENT_EMAIL_PREVIEW_CHARS ? `${text.slice(0, SENT_EMAIL_PREVIEW_CHARS)}...` : text);
/** While some e-mail of the page is still on its way, the page reads again this often. */
const PENDING_REFRESH_MS = 3000;

/** 'Lista de Emails Enviados' (/EmailLis, spec 3 §2, §9): 5 per page, preview cut at 100 characters, open and close. */
export default function SentEmailsPage() {
  const { t } = useTranslation();
  const timeZone = useCompanyTimeZone();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<SentEmail | null>(null);
  const query = useQuery({
    queryKey: sentEmailKeys.page(page),
    queryFn: ({ signal }) => fetchSentEmails(page, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.results.some((e) => e.status === "queued" || e.status === "sending") ? PENDING_REFRESH_MS : false),
  });
  const data = query.data;
  const pages = data ? Math.max(1, Math.ceil(data.count / SENT_EMAIL_PAGE_SIZE)) : 1;

  return (
    <>
      <PageHeading title={t("emailTool.list.title")} count={data?.count} />
      {query.isLoading && (
        <Box sx={{ display: "flex", justifyContent: "center", py: 4 }}>
          <CircularProgress size={28} />
        </Box>
      )}
      {query.isError && <EmptyState>{errorText(query.error)}</EmptyState>}
      {data && data.results.length === 0 && <EmptyState>{t("emailTool.list.empty")}</EmptyState>}
      <Box sx={{ display: "grid", gap: 1.5, maxWidth: 900 }}>
        {data?.results.map((email) => (
          <Card key={email.id} variant="outlined" data-testid="sent-email">
            <CardContent sx={{ pb: 1 }}>
              <Box sx={{ display: "flex", gap: 1, alignItems: "center", flexWrap: "wrap", mb: 0.5 }}>
                <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1, minWidth: 0, wordBreak: "break-word" }}>
                  {email.subject}
                </Typography>
                <SentEmailStatusChip email={email} />
              </Box>
              <Typography variant="body2" color="text.secondary" sx={{ wordBreak: "break-all" }}>
                {t("emailTool.list.to")}: {email.sender} · {formatInZone(email.created_at, timeZone)}
              </Typography>
              <Typography variant="body2" sx={{ mt: 1, wordBreak: "break-word" }} data-testid="sent-email-preview">
                {preview(email.message)}
              </Typography>
            </CardContent>
            <CardActions>
              <Button size="small" onClick={() => setOpen(email)}>
                {t("emailTool.list.open")}
              </Button>
            </CardActions>
          </Card>
        ))}
      </Box>
      {pages > 1 && <Pagination sx={{ mt: 2 }} count={pages} page={page} onChange={(_e, p) => setPage(p)} color="primary" />}
      <SentEmailDialog email={open} onClose={() => setOpen(null)} />
    </>
  );
}
