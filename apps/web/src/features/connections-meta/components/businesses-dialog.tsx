import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import EditIcon from "@mui/icons-material/Edit";
import ScienceIcon from "@mui/icons-material/Science";
import SyncIcon from "@mui/icons-material/Sync";
import { useTranslation } from "react-i18next";
import type { Business, BusinessSyncResult } from "@atende/shared";
import { toastError } from "../../../lib/toast-error";
import { toast } from "../../../lib/toast";
import { businessKeys, createSandboxBusiness, fetchBusinesses, syncBusiness } from "../api/businesses";
import { SandboxFailureRateField } from "./sandbox-failure-rate-field";
import { officialKeys } from "../api/official-whatsapp";
import { BusinessFormDialog } from "./business-form-dialog";

function formatDateTime(iso: string | null): string {
  if (!iso) return "—";
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getDate())}/${p(d.getMonth() + 1)}/${String(d.getFullYear()).slice(2)} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** The company's WhatsApp Business Accounts: add, edit and sync (administrators); supervisors only read. */
export function BusinessesDialog({ open, canEdit, canCreateSandbox, onClose }: { open: boolean; canEdit: boolean; canCreateSandbox: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const businesses = useQuery({ queryKey: businessKeys.all, queryFn: fetchBusinesses, enabled: open });
  const [form, setForm] = useState<{ open: boolean; business: Business | null }>({ open: false, business: null });
  const [syncing, setSyncing] = useState<number | null>(null);
  const [result, setResult] = useState<{ name: string; r: BusinessSyncResult } | null>(null);
  const [creatingSandbox, setCreatingSandbox] = useState(false);

  /** "Criar BM de teste": two sandbox numbers and approved templates, to try a campaign without Meta. */
  async function createSandbox() {
    setCreatingSandbox(true);
    try {
      const r = await createSandboxBusiness();
      toast.success(t("connectionsMeta.businesses.sandboxCreated", { name: r.name, numbers: r.numbers, templates: r.templates }));
      await Promise.all([queryClient.invalidateQueries({ queryKey: businessKeys.all }), queryClient.invalidateQueries({ queryKey: officialKeys.all })]);
    } catch (err) {
      toastError(err);
    } finally {
      setCreatingSandbox(false);
    }
  }

  const upsert = (b: Business) =>
    queryClient.setQueryData<Business[]>(businessKeys.all, (old = []) => (old.some((x) => x.id === b.id) ? old.map((x) => (x.id === b.id ? b : x)) : [...old, b]));

  async function sync(b: Business) {
    setSyncing(b.id);
    setResult(null);
    try {
      const r = await syncBusiness(b.id);
      upsert(r.business);
      setResult({ name: b.name, r });
      await queryClient.invalidateQueries({ queryKey: officialKeys.all });
    } catch (err) {
      toastError(err);
    } finally {
      setSyncing(null);
    }
  }

  const rows = businesses.data ?? [];
  const hasSandbox = rows.some((b) => b.sandbox);
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="businesses-title">
      <DialogTitle id="businesses-title" sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Box sx={{ flexGrow: 1 }}>{t("connectionsMeta.businesses.title")}</Box>
        {canEdit && canCreateSandbox && !hasSandbox && businesses.isSuccess && (
          <Tooltip title={t("connectionsMeta.businesses.sandboxHint")} describeChild>
            <Button
              variant="outlined"
              size="small"
              startIcon={creatingSandbox ? <CircularProgress size={16} /> : <ScienceIcon />}
              disabled={creatingSandbox}
              onClick={() => void createSandbox()}
            >
              {t("connectionsMeta.businesses.createSandbox")}
            </Button>
          </Tooltip>
        )}
        {canEdit && (
          <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={() => setForm({ open: true, business: null })}>
            {t("connectionsMeta.businesses.add")}
          </Button>
        )}
      </DialogTitle>
      <DialogContent dividers>
        {result && (
          <Alert severity="success" sx={{ mb: 2 }} onClose={() => setResult(null)} data-testid="sync-result">
            {t("connectionsMeta.businesses.syncResult", {
              name: result.name,
              numbers: result.r.phoneNumbers.total,
              created: result.r.phoneNumbers.created,
              updated: result.r.phoneNumbers.updated,
              templates: result.r.templates.total,
            })}
            {result.r.phoneNumbers.skipped > 0 && ` ${t("connectionsMeta.businesses.syncSkipped", { count: result.r.phoneNumbers.skipped })}`}
          </Alert>
        )}
        <Table size="small" aria-label={t("connectionsMeta.businesses.title")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("connectionsMeta.businesses.name")}</TableCell>
              <TableCell>{t("connectionsMeta.businesses.wabaId")}</TableCell>
              <TableCell align="center">{t("connectionsMeta.businesses.numbers")}</TableCell>
              <TableCell align="center">{t("connectionsMeta.businesses.templates")}</TableCell>
              <TableCell>{t("connectionsMeta.businesses.lastSync")}</TableCell>
              {canEdit && <TableCell align="right">{t("connectionsMeta.columns.actions")}</TableCell>}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((b) => (
              <TableRow key={b.id} data-testid="business-row">
                <TableCell>
                  <Typography fontWeight={500}>
                    {b.name}
                    {b.sandbox && <Chip size="small" color="info" variant="outlined" sx={{ ml: 1 }} label={t("connectionsMeta.businesses.sandboxBadge")} />}
                  </Typography>
                  {!b.sandbox && (
                    <Typography variant="caption" color="text.secondary" sx={{ wordBreak: "break-all" }} title={t("connectionsMeta.businesses.webhookUrl")}>
                      {b.webhookUrl}
                    </Typography>
                  )}
                </TableCell>
                <TableCell sx={{ fontFamily: "monospace" }}>{b.wabaId}</TableCell>
                <TableCell align="center">{b.phoneNumbersCount}</TableCell>
                <TableCell align="center">{b.templatesCount}</TableCell>
                <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDateTime(b.lastSyncAt)}</TableCell>
                {canEdit && b.sandbox && (
                  <TableCell align="right">
                    <SandboxFailureRateField business={b} />
                  </TableCell>
                )}
                {canEdit && !b.sandbox && (
                  <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                    <Tooltip title={t("connectionsMeta.businesses.sync")}>
                      <span>
                        <IconButton size="small" aria-label={t("connectionsMeta.businesses.sync")} onClick={() => void sync(b)} disabled={syncing !== null}>
                          {syncing === b.id ? <CircularProgress size={18} /> : <SyncIcon fontSize="small" />}
                        </IconButton>
                      </span>
                    </Tooltip>
                    <Tooltip title={t("connectionsMeta.businesses.editTitle")}>
                      <IconButton size="small" aria-label={t("connectionsMeta.businesses.editTitle")} onClick={() => setForm({ open: true, business: b })}>
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                )}
              </TableRow>
            ))}
            {businesses.isSuccess && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={6}>
                  <Box sx={{ py: 4, textAlign: "center", color: "text.secondary" }}>{t("connectionsMeta.businesses.empty")}</Box>
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common.close")}</Button>
      </DialogActions>
      <BusinessFormDialog open={form.open} business={form.business} onClose={() => setForm((f) => ({ ...f, open: false }))} onSaved={upsert} />
    </Dialog>
  );
}
