import { useEffect, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Alert, Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, LinearProgress, List, ListItem, ListItemText, Typography } from "@mui/material";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { channel, CONTACT_IMPORT_MESSAGES, LIMITS, type ContactImport, type ContactImportProgressEvent } from "@atende/shared";
import { ApiError } from "../../../lib/api";
import { useSocketEvent } from "../../../lib/use-socket-event";
import { fetchImport, importContacts } from "../api/import-export";

interface Props {
  open: boolean;
  companyId: number;
  onClose(): void;
  onImported(): void;
}

const MESSAGE_KEYS: Record<string, string> = {
  [CONTACT_IMPORT_MESSAGES.tooBig]: "contacts.importDialog.tooLarge",
  [CONTACT_IMPORT_MESSAGES.parseError]: "contacts.importDialog.parseError",
  [CONTACT_IMPORT_MESSAGES.badLayout]: "contacts.importDialog.layout",
  [CONTACT_IMPORT_MESSAGES.noFile]: "contacts.importDialog.noFile",
};

/** The failure as one of §5's messages (the server sends them as the error message). */
function importErrorKey(err: unknown): string {
  if (err instanceof ApiError) {
    const key = MESSAGE_KEYS[err.body.message ?? ""];
    if (key) return key;
    if (err.status === 413) return "contacts.importDialog.tooLarge";
  }
  return "contacts.importDialog.uploadError";
}

/** CSV import (2-administration §5): 5 MB, semicolon separated, nome/telefone/cpf/email headers. */
export function ImportDialog({ open, companyId, onClose, onImported }: Props) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [job, setJob] = useState<ContactImport | null>(null);

  useEffect(() => {
    if (!open) return;
    setFile(null);
    setError(null);
    setUploading(false);
    setJob(null);
  }, [open]);

  const running = job !== null && (job.status === "queued" || job.status === "running");
  // Events carry the progress; polling covers a missed event and brings the rejected rows at the end.
  const polled = useQuery({
    queryKey: ["contacts", "import", job?.jobId],
    queryFn: () => fetchImport(job!.jobId),
    enabled: running,
    refetchInterval: running ? 2000 : false,
  });

  useSocketEvent<ContactImportProgressEvent>(open ? channel.contact(companyId) : null, (e) => {
    if (e?.action !== "import-progress" || !job || e.jobId !== job.jobId || !running) return;
    setJob((j) => (j ? { ...j, ...e } : j));
    if (e.status === "done" || e.status === "failed") void polled.refetch();
  });

  useEffect(() => {
    if (polled.data && job && polled.data.jobId === job.jobId) setJob(polled.data);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [polled.data]);

  // The end of an import: counts, reasons and the §8 toast.
  const finished = useRef<string | null>(null);
  useEffect(() => {
    if (!job || finished.current === job.jobId) return;
    if (job.status === "done") {
      finished.current = job.jobId;
      toast.success(t("contacts.importDialog.success"));
      onImported();
    } else if (job.status === "failed") {
      finished.current = job.jobId;
      setError(MESSAGE_KEYS[job.error ?? ""] ?? "contacts.importDialog.parseError");
    }
  }, [job, onImported, t]);

  function choose(f: File | undefined) {
    setJob(null);
    setError(null);
    if (!f) return;
    if (f.size > LIMITS.importMaxBytes) {
      setFile(null);
      setError("contacts.importDialog.tooLarge");
      return;
    }
    setFile(f);
  }

  async function submit() {
    if (!file) {
      setError("contacts.importDialog.noFile");
      return;
    }
    setUploading(true);
    setError(null);
    setJob(null);
    try {
      setJob(await importContacts(file));
    } catch (err) {
      setError(importErrorKey(err));
    } finally {
      setUploading(false);
    }
  }

  const busy = uploading || running;
  const percent = running && job.total > 0 ? Math.min(100, (job.processed / job.total) * 100) : undefined;
  const result = job?.status === "done" ? job : null;
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{t("contacts.importDialog.title")}</DialogTitle>
      <DialogContent dividers sx={{ display: "grid", gap: 2 }}>
        <Typography variant="body2" color="text.secondary">
          {t("contacts.importDialog.help")}
        </Typography>
        <Box sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
          <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={() => input.current?.click()} disabled={busy}>
            {t("contacts.importDialog.choose")}
          </Button>
          <input
            ref={input}
            type="file"
            accept=".csv,text/csv"
            hidden
            data-testid="import-file"
            onChange={(e) => {
              choose(e.target.files?.[0]);
              e.target.value = "";
            }}
          />
          {file && <Chip label={`${file.name} (${(file.size / 1024).toFixed(1)} KB)`} onDelete={busy ? undefined : () => setFile(null)} />}
        </Box>
        {error && (
          <Alert severity="error" data-testid="import-error">
            {t(error)}
          </Alert>
        )}
        {busy && (
          <Box>
            <LinearProgress variant={percent === undefined ? "indeterminate" : "determinate"} value={percent} aria-label={t("contacts.importDialog.working")} />
            <Typography variant="caption" color="text.secondary">
              {running && job.total > 0 ? t("contacts.importDialog.progress", { processed: job.processed, total: job.total }) : t("contacts.importDialog.working")}
            </Typography>
          </Box>
        )}
        {result && (
          <Box data-testid="import-result">
            <Alert severity={result.rejected > 0 ? "warning" : "success"} sx={{ mb: 1 }}>
              {t("contacts.importDialog.success")}
            </Alert>
            <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
              <Chip color="success" label={`${t("contacts.importDialog.imported")}: ${result.imported}`} />
              <Chip color="info" label={`${t("contacts.importDialog.updated")}: ${result.updated}`} />
              <Chip color={result.rejected > 0 ? "warning" : "default"} label={`${t("contacts.importDialog.rejected")}: ${result.rejected}`} />
            </Box>
            {result.errors.length > 0 && (
              <>
                <Typography variant="subtitle2" sx={{ mt: 2 }}>
                  {t("contacts.importDialog.reasons")}
                </Typography>
                <List dense sx={{ maxHeight: 220, overflow: "auto", bgcolor: "action.hover", borderRadius: 1 }}>
                  {result.errors.map((e, i) => (
                    <ListItem key={i}>
                      <ListItemText primary={t("contacts.importDialog.line", { line: e.line })} secondary={e.reason} />
                    </ListItem>
                  ))}
                </List>
              </>
            )}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t("common.close")}
        </Button>
        <Button variant="contained" onClick={submit} disabled={busy}>
          {t("contacts.importDialog.submit")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
