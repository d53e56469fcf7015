import { useEffect, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Box, Button, Chip, List, ListItemButton, ListItemText, Paper, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { PageHeading } from "../../components/page-heading";
import { SearchField } from "../../components/search-field";
import { EmptyState } from "../../components/empty-state";
import { useDebouncedValue } from "../../components/use-debounced-value";
import { logFailure } from "../../lib/log-failure";
import { toast } from "../../lib/toast";
import { emailSandboxKeys, fetchSandboxMail, SANDBOX_PAGE_SIZE } from "./api/email-sandbox";
import { MailFrame } from "./mail-frame";

/**
 * /email-sandbox: what the sandbox mail driver "sent" (no SMTP configured, or development): the
 * company's campaign e-mails and sender confirmations; super admins also see the platform's own mail.
 */
export default function EmailSandboxPage() {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const to = useDebouncedValue(search.trim());
  const [openId, setOpenId] = useState<number | null>(null);
  const list = useQuery({
    queryKey: emailSandboxKeys.list(page, to),
    queryFn: ({ signal }) => fetchSandboxMail(page, to, signal),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
  useEffect(() => {
    if (list.error) {
      logFailure("sandbox mailbox", list.error);
      toast.error(t("emailSandbox.loadError"), { toastId: "email-sandbox" });
    }
  }, [list.error, t]);
  const pages = Math.max(Math.ceil((list.data?.count ?? 0) / SANDBOX_PAGE_SIZE), 1);
  const open = list.data?.results.find((m) => m.id === openId) ?? null;

  return (
    <>
      <PageHeading title={t("emailSandbox.title")} count={list.data?.count}>
        <SearchField
          value={search}
          onChange={(v) => {
            setSearch(v);
            setPage(1);
          }}
          placeholder={t("emailSandbox.search")}
        />
      </PageHeading>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t("emailSandbox.intro")}
      </Typography>
      {/* minmax(0, …): a column is never wider than the screen because of a long subject or address */}
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "minmax(0, 1fr)", md: "minmax(260px, 360px) minmax(0, 1fr)" }, gap: 2 }}>
        <Paper variant="outlined" sx={{ minWidth: 0, display: { xs: open ? "none" : "block", md: "block" } }}>
          <List dense disablePadding aria-label={t("emailSandbox.title")}>
            {list.data?.results.map((m) => (
              <ListItemButton key={m.id} selected={m.id === openId} onClick={() => setOpenId(m.id)} divider data-testid="sandbox-mail">
                <ListItemText
                  primary={m.subject}
                  secondary={`${m.to} · ${new Date(m.created_at).toLocaleString(i18n.language)}`}
                  slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
                />
                {m.platform && <Chip size="small" label={t("emailSandbox.platform")} sx={{ ml: 1 }} />}
              </ListItemButton>
            ))}
          </List>
          {list.isSuccess && list.data.results.length === 0 && <EmptyState>{t("emailSandbox.empty")}</EmptyState>}
          <Box sx={{ display: "flex", alignItems: "center", justifyContent: "flex-end", gap: 1, p: 1 }}>
            <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {t("emailSandbox.previous")}
            </Button>
            <Typography variant="body2">{t("emailSandbox.page", { page, pages })}</Typography>
            <Button size="small" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              {t("emailSandbox.next")}
            </Button>
          </Box>
        </Paper>
        <Paper variant="outlined" sx={{ p: 2, minWidth: 0, display: { xs: open ? "block" : "none", md: "block" } }}>
          {open ? (
            <>
              <Button size="small" sx={{ display: { md: "none" }, mb: 1 }} onClick={() => setOpenId(null)}>
                {t("emailSandbox.back")}
              </Button>
              <Typography variant="h6" sx={{ wordBreak: "break-word" }}>
                {open.subject}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ wordBreak: "break-all" }}>
                {t("emailSandbox.from")}: {open.from} · {t("emailSandbox.to")}: {open.to}
              </Typography>
              {Object.keys(open.headers).length > 0 && (
                <Typography variant="caption" color="text.secondary" component="div" sx={{ wordBreak: "break-all", mb: 1 }}>
                  {Object.entries(open.headers).map(([k, v]) => (
                    <div key={k}>
                      {k}: {v}
                    </div>
                  ))}
                </Typography>
              )}
              <MailFrame mail={open} />
            </>
          ) : (
            <EmptyState>{t("emailSandbox.choose")}</EmptyState>
          )}
        </Paper>
      </Box>
    </>
  );
}
