import { useEffect, useRef, useState } from "react";
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Typography,
} from "@mui/material";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import { useTranslation } from "react-i18next";
import { toast } from "react-toastify";
import { channel, LIMITS } from "@atende/shared";
import { ApiError } from "../../../lib/api";
import { useSocketEvent } from "../../../lib/use-socket-event";
import { importContacts, isImportJob, type ImportResult } from "../api/import-export";

interface Props {
  open: boolean;
  companyId: number;
  onClose(): void;
  onImported(): void;
}

/** Import events on company-{id}-contact while a large file is processed in the background. */
interface ImportEvent extends Partial<ImportResult> {
  action: string;
  jobId?: string | number;
  processed?: number;
  total?: number;
  error?: string;
  message?: string;
}

const MESSAGE_KEYS: Record<string, string> = {
  "O arquivo nao pode exceder 5MB.": "contacts.importDialog.tooLarge",
  "Erro ao processar o arquivo.": "contacts.importDialog.parseError",
  "Layout do arquivo invalido. Esperado: nome, numero, telefone, cpf.": "contacts.importDialog.layout",
  "Por favor, selecione um arquivo.": "contacts.importDialog.noFile",
};

/** The import's failure as one of §5's messages (the server sends them as the error message). */
function importErrorKey(err: unknown): string {
  if (err instanceof ApiError) {
    const key = MESSAGE_KEYS[err.body.message ?? ""];
    if (key) return key;
    if (err.status === 413) return "contacts.importDialog.tooLarge";
    if (err.status === 400 || err.status === 422) return "contacts.importDialog.parseError";
  }
  return "contacts.importDialog.uploadError";
}

/** CSV import (2-administration §5): 5 MB, semicolon separated, nome/telefone/cpf/email headers. */
export function ImportDialog({ open, companyId, onClose, onImported }: Props) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [job, setJob] = useState<string | number | null>(null);
  const [progress, setProgress] = useState<{ processed: number; total: number } | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);

  useEffect(() => {
    if (!open) return;
    setFile(null);
    setError(null);
    setBusy(false);
    setJob(null);
    setProgress(null);
    setResult(null);
  }, [open]);

  function finish(res: ImportResult) {
    setResult({ imported: res.imported ?? 0, updated: res.updated ?? 0, rejected: res.rejected ?? 0, errors: res.errors ?? [] });
    setBusy(false);
    setJob(null);
    setProgress(null);
    toast.success(t("contacts.importDialog.success"));
    onImported();
  }

  useSocketEvent<ImportEvent>(open ? channel.contact(companyId) : null, (e) => {
    if (!e || typeof e.action !== "string" || !e.action.startsWith("import")) return;
    if (job !== null && e.jobId !== undefined && String(e.jobId) !== String(job)) return;
    if (e.action === "import-progress") {
      if (typeof e.processed === "number" && typeof e.total === "number") setProgress({ processed: e.processed, total: e.total });
      if (e.imported !== undefined && e.processed === e.total && job !== null) finish(e as ImportResult);
    } else if (e.action === "import-error" || e.action === "import-failed") {
      setBusy(false);
      setJob(null);
      setError(MESSAGE_KEYS[e.message ?? e.error ?? ""] ?? "contacts.importDialog.parseError");
    } else if (e.imported !== undefined) {
      finish(e as ImportResult);
    }
  });

  function choose(f: File | undefined) {
    setResult(null);
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
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const res = await importContacts(file);
      if (isImportJob(res)) {
        setJob(res.jobId);
        setProgress({ processed: 0, total: res.total ?? 0 });
      } else finish(res);
    } catch (err) {
      setBusy(false);
      setError(importErrorKey(err));
    }
  }

  const percent = progress && progress.total > 0 ? Math.min(100, (progress.processed / progress.total) * 100) : undefined;
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
        {error && <Alert severity="error">{t(error)}</Alert>}
        {busy && (
          <Box>
            <LinearProgress variant={percent === undefined ? "indeterminate" : "determinate"} value={percent} aria-label={t("contacts.importDialog.working")} />
            <Typography variant="caption" color="text.secondary">
              {progress && progress.total > 0 ? t("contacts.importDialog.progress", progress) : t("contacts.importDialog.working")}
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
                  {result.errors.slice(0, 200).map((e, i) => (
                    <ListItem key={i}>
                      <ListItemText
                        primary={e.line ?? e.row ? t("contacts.importDialog.line", { line: e.line ?? e.row }) : undefined}
                        secondary={e.reason ?? e.message ?? e.error}
                      />
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
