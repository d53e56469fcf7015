import { useState, type FormEvent } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Box, Button, Chip, IconButton, Paper, Table, TableBody, TableCell, TableHead, TableRow, TextField, Tooltip } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import DeleteIcon from "@mui/icons-material/Delete";
import ForwardToInboxIcon from "@mui/icons-material/ForwardToInbox";
import { useTranslation } from "react-i18next";
import { isEmailAddress, type EmailSenderAdmin } from "@atende/shared";
import { PageHeading } from "../../components/page-heading";
import { TableRowsSkeleton } from "../../components/table-rows-skeleton";
import { EmptyTableRow } from "../../components/empty-state";
import { ConfirmationDialog } from "../../components/confirmation-dialog";
import { toast } from "../../lib/toast";
import { toastError } from "../../lib/toast-error";
import { logFailure } from "../../lib/log-failure";
import { addSender, deleteSender, emailSenderKeys, fetchSenders, resendVerification } from "./api/email-senders";

/**
 * /email-senders (admins): the company's e-mail senders with their status. A new address gets an
 * e-mail with a signed link (in the sandbox mailbox without SMTP); it is usable once the link is confirmed.
 */
export default function EmailSendersPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [address, setAddress] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<EmailSenderAdmin | null>(null);
  const list = useQuery({ queryKey: emailSenderKeys.all, queryFn: ({ signal }) => fetchSenders(signal) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: emailSenderKeys.all });

  async function run(what: string, action: () => Promise<unknown>, success: string) {
    setBusy(true);
    try {
      await action();
      toast.success(success);
      await refresh();
      return true;
    } catch (err) {
      logFailure(`e-mail senders: ${what}`, err);
      toastError(err);
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const value = address.trim().toLowerCase();
    if (!isEmailAddress(value)) {
      setError(t("emailSenders.invalid"));
      return;
    }
    if (await run("add", () => addSender(value), t("emailSenders.added"))) setAddress("");
  }


  return (
    <>
      <PageHeading title={t("emailSenders.title")} count={list.data?.count} />
      <Paper variant="outlined" component="form" noValidate onSubmit={(e: FormEvent) => void submit(e)} sx={{ p: 2, mb: 2, display: "flex", gap: 1.5, flexWrap: "wrap", alignItems: "start" }}>
        <TextField
          size="small"
          type="email"
          name="email_address"
          label={t("emailSenders.address")}
          value={address}
          onChange={(e) => {
            setAddress(e.target.value);
            setError("");
          }}
          error={!!error}
          helperText={error || t("emailSenders.hint")}
          sx={{ flex: "1 1 260px" }}
        />
        <Button type="submit" variant="contained" startIcon={<AddIcon />} disabled={busy}>
          {t("emailSenders.add")}
        </Button>
      </Paper>
      <Paper variant="outlined" sx={{ overflowX: "auto" }}>
        <Table size="small" aria-label={t("emailSenders.title")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("emailSenders.columns.address")}</TableCell>
              <TableCell>{t("emailSenders.columns.status")}</TableCell>
              <TableCell align="right">{t("emailSenders.columns.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.data?.results.map((s) => (
              <TableRow key={s.id} hover data-testid="sender-row">
                <TableCell sx={{ wordBreak: "break-all" }}>{s.email_address}</TableCell>
                <TableCell>
                  <Chip size="small" color={s.verified ? "success" : "warning"} label={t(s.verified ? "emailSenders.verified" : "emailSenders.pending")} />
                </TableCell>
                <TableCell align="right">
                  <Box sx={{ display: "inline-flex", gap: 0.5 }}>
                    {!s.verified && (
                      <Tooltip title={t("emailSenders.resend")}>
                        <IconButton size="small" aria-label={t("emailSenders.resend")} disabled={busy} onClick={() => void run("resend", () => resendVerification(s.id), t("emailSenders.resent"))}>
                          <ForwardToInboxIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                    <Tooltip title={t("emailSenders.delete")}>
                      <IconButton size="small" aria-label={t("emailSenders.delete")} disabled={busy} onClick={() => setDeleting(s)}>
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </Box>
                </TableCell>
              </TableRow>
            ))}
            {list.isLoading && <TableRowsSkeleton columns={3} />}
            {list.isError && <EmptyTableRow colSpan={3}>{t("emailSenders.loadError")}</EmptyTableRow>}
            {list.isSuccess && list.data.results.length === 0 && <EmptyTableRow colSpan={3}>{t("emailSenders.empty")}</EmptyTableRow>}
          </TableBody>
        </Table>
      </Paper>
      <ConfirmationDialog
        open={deleting !== null}
        title={t("emailSenders.delete")}
        confirmLabel={t("emailSenders.delete")}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          const s = deleting;
          setDeleting(null);
          if (s) void run("delete", () => deleteSender(s.id), t("emailSenders.deleted"));
        }}
      >
        {deleting ? t("emailSenders.confirmDelete", { address: deleting.email_address }) : ""}
      </ConfirmationDialog>
    </>
  );
}
