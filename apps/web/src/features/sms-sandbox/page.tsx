import { useState } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Paper, Table, TableBody, TableCell, TableHead, TableRow, TextField, Tooltip, Typography } from "@mui/material";
import ReplyIcon from "@mui/icons-material/Reply";
import { useTranslation } from "react-i18next";
import type { SmsSandboxMessage } from "@atende/shared";
import { PageHeading } from "../../components/page-heading";
import { TableRowsSkeleton } from "../../components/table-rows-skeleton";
import { EmptyTableRow } from "../../components/empty-state";
import { ApiError } from "../../lib/api";
import { formatInZone, useCompanyTimeZone } from "../../lib/time-zone";
import { logFailure } from "../../lib/log-failure";
import { toast } from "../../lib/toast";
import { fetchSandboxMessages, replyToSandboxMessage, smsSandboxKeys } from "./api";

const PAGE_SIZE = 40;
/** The sandbox's receipts arrive within seconds: the page reads again every 3 s. */
const REFRESH_MS = 3000;
/** At phone width the number goes above the text (the table keeps text, status and reply). */
const NARROW_HIDDEN = { display: { xs: "none", sm: "table-cell" } } as const;
const COLORS: Record<string, "default" | "info" | "success" | "error"> = { queued: "info", delivered: "success", undelivered: "error" };

/**
 * /sms-sandbox: the SMS the sandbox provider "sent" for this company (to, text, segments, status,
 * time), and the phone's side: a reply is handled as a real inbound SMS (SAIR, PARAR, STOP... put the
 * number on the opt-out list).
 */
export default function SmsSandboxPage() {
  const { t } = useTranslation();
  const timeZone = useCompanyTimeZone();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [replying, setReplying] = useState<SmsSandboxMessage | null>(null);
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const list = useQuery({ queryKey: smsSandboxKeys.page(page), queryFn: ({ signal }) => fetchSandboxMessages(page, signal), refetchInterval: REFRESH_MS, placeholderData: keepPreviousData, retry: false });
  const off = list.error instanceof ApiError && list.error.code === "ERR_SMS_SANDBOX_OFF";
  const pages = Math.max(Math.ceil((list.data?.count ?? 0) / PAGE_SIZE), 1);

  async function reply() {
    if (!replying || !text.trim()) return;
    setSending(true);
    try {
      const res = await replyToSandboxMessage(replying.id, text.trim());
      toast.success(res.optedOut ? t("smsSandbox.optedOut") : t("smsSandbox.replied"));
      setReplying(null);
      setText("");
      await queryClient.invalidateQueries({ queryKey: ["sms-sandbox"] });
    } catch (err) {
      logFailure("sms sandbox reply", err, { messageId: replying.id });
      toast.error(t("smsSandbox.errors.reply"));
    } finally {
      setSending(false);
    }
  }

  return (
    <>
      <PageHeading title={t("smsSandbox.title")} />
      <Alert severity="info" sx={{ mb: 2 }}>{t("smsSandbox.hint")}</Alert>
      {off && <Alert severity="warning" sx={{ mb: 2 }}>{t("backendErrors.ERR_SMS_SANDBOX_OFF")}</Alert>}
      <Paper variant="outlined" sx={{ overflowX: "auto" }}>
        <Table size="small" aria-label={t("smsSandbox.title")}>
          <TableHead>
            <TableRow>
              <TableCell sx={NARROW_HIDDEN}>{t("smsSandbox.columns.to")}</TableCell>
              <TableCell>{t("smsSandbox.columns.text")}</TableCell>
              <TableCell align="right" sx={{ display: { xs: "none", sm: "table-cell" } }}>{t("smsSandbox.columns.segments")}</TableCell>
              <TableCell>{t("smsSandbox.columns.status")}</TableCell>
              <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("smsSandbox.columns.time")}</TableCell>
              <TableCell align="right">{t("smsSandbox.columns.reply")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.data?.results.map((m) => (
              <TableRow key={m.id} data-testid={`sms-sandbox-${m.to}`}>
                <TableCell sx={{ ...NARROW_HIDDEN, whiteSpace: "nowrap" }}>+{m.to}</TableCell>
                <TableCell sx={{ wordBreak: "break-word", minWidth: 150 }}>
                  <Typography variant="caption" color="text.secondary" sx={{ display: { xs: "block", sm: "none" } }}>
                    +{m.to}
                  </Typography>
                  {m.body}
                  {m.reply && (
                    <Typography variant="caption" color="text.secondary" sx={{ display: "block", mt: 0.5 }}>
                      ↩ {m.reply}
                    </Typography>
                  )}
                </TableCell>
                <TableCell align="right" sx={{ display: { xs: "none", sm: "table-cell" } }}>{m.segments}</TableCell>
                <TableCell>
                  <Chip size="small" color={COLORS[m.status] ?? "default"} label={t(`smsSandbox.status.${m.status in COLORS ? m.status : "unknown"}`)} data-testid="sms-sandbox-status" />
                </TableCell>
                <TableCell sx={{ display: { xs: "none", md: "table-cell" }, whiteSpace: "nowrap" }}>{formatInZone(m.created_at, timeZone)}</TableCell>
                <TableCell align="right">
                  <Tooltip title={t("smsSandbox.reply")}>
                    <IconButton size="small" aria-label={t("smsSandbox.reply")} onClick={() => setReplying(m)}>
                      <ReplyIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {list.isLoading && <TableRowsSkeleton columns={6} />}
            {list.isSuccess && list.data.results.length === 0 && <EmptyTableRow colSpan={6}>{t("smsSandbox.empty")}</EmptyTableRow>}
          </TableBody>
        </Table>
      </Paper>
      <Box sx={{ display: "flex", alignItems: "center", justifyContent: "flex-end", gap: 1, mt: 1.5 }}>
        <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)}>{t("smsSandbox.previous")}</Button>
        <Typography variant="body2">{t("smsSandbox.page", { page, pages })}</Typography>
        <Button size="small" disabled={page >= pages} onClick={() => setPage(page + 1)}>{t("smsSandbox.next")}</Button>
      </Box>
      <Dialog open={replying !== null} onClose={sending ? undefined : () => setReplying(null)} fullWidth maxWidth="xs">
        <DialogTitle>{t("smsSandbox.replyTo", { to: replying ? `+${replying.to}` : "" })}</DialogTitle>
        <DialogContent>
          <TextField autoFocus fullWidth multiline minRows={2} label={t("smsSandbox.replyText")} helperText={t("smsSandbox.replyHint")} value={text}
            onChange={(e) => setText(e.target.value)} slotProps={{ htmlInput: { maxLength: 1600, "data-testid": "sms-sandbox-reply-text" } }} sx={{ mt: 1 }} />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setReplying(null)} disabled={sending}>{t("smsSandbox.cancel")}</Button>
          <Button variant="contained" onClick={() => void reply()} disabled={sending || !text.trim()}>{t("smsSandbox.send")}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
