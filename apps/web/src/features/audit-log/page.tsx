import { useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Box, MenuItem, Pagination, Paper, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from "@atende/shared";
import { DateField } from "../../components/date-time-field";
import { EmptyTableRow } from "../../components/empty-state";
import { PageHeading } from "../../components/page-heading";
import { SearchField } from "../../components/search-field";
import { TableRowsSkeleton } from "../../components/table-rows-skeleton";
import { useDebouncedValue } from "../../components/use-debounced-value";
import { formatInZone, useCompanyTimeZone } from "../../lib/time-zone";
import { auditLogKeys, fetchAuditLog, type AuditLogFilters } from "./api/audit-log";

const PAGE_SIZE = 50;

/** What an entry's details say, in words (a profile change, an erasure's counts, a failed login's reason). */
function DetailsText({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const d = entry.details as Record<string, string | number | undefined>;
  if (entry.action === "user.profile_changed") {
    return <>{t("auditLog.details.profile", { from: t(`auditLog.profiles.${String(d.from)}`), to: t(`auditLog.profiles.${String(d.to)}`) })}</>;
  }
  if (entry.action === "login.failed") return <>{t(`auditLog.reasons.${String(d.reason)}`, { defaultValue: String(d.reason ?? "") })}</>;
  if (entry.action === "contact.erased") return <>{t("auditLog.details.erased", { messages: d.messages ?? 0, tickets: d.tickets ?? 0 })}</>;
  if (entry.action === "opt_out.added" || entry.action === "opt_out.removed")
    return <>{t("auditLog.details.optOut", { channel: t(`auditLog.channels.${String(d.channel)}`), address: d.address ?? "" })}</>;
  if (entry.action === "contact.exported") return <>{t("auditLog.details.exported", { messages: d.messages ?? 0, tickets: d.tickets ?? 0 })}</>;
  return null;
}

/** The company's audit log (administrators): logins, profile changes, exports and erasures of contacts' data. */
export default function AuditLogPage() {
  const { t } = useTranslation();
  const timeZone = useCompanyTimeZone();
  const [action, setAction] = useState<AuditAction | "">("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const searchParam = useDebouncedValue(search);
  const filters: AuditLogFilters = { action, from, to, searchParam };
  const list = useQuery({
    queryKey: auditLogKeys.page(filters, page),
    queryFn: ({ signal }) => fetchAuditLog(filters, page, signal),
    placeholderData: keepPreviousData,
  });
  const pages = Math.max(1, Math.ceil((list.data?.count ?? 0) / PAGE_SIZE));
  const filter = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage(1);
  };

  return (
    <>
      <PageHeading title={t("auditLog.title")} count={list.data?.count}>
        <SearchField value={search} onChange={filter(setSearch)} placeholder={t("auditLog.searchPlaceholder")} />
      </PageHeading>
      <Box sx={{ display: "grid", gap: 1.5, gridTemplateColumns: { xs: "1fr", sm: "repeat(3, minmax(0, 1fr))" }, mb: 2 }}>
        <TextField select size="small" label={t("auditLog.filters.action")} value={action} onChange={(e) => filter(setAction)(e.target.value as AuditAction | "")}>
          <MenuItem value="">{t("auditLog.filters.all")}</MenuItem>
          {AUDIT_ACTIONS.map((a) => (
            <MenuItem key={a} value={a}>
              {t(`auditLog.actions.${a}`)}
            </MenuItem>
          ))}
        </TextField>
        <DateField size="small" name="from" label={t("auditLog.filters.from")} value={from} onChange={filter(setFrom)} />
        <DateField size="small" name="to" label={t("auditLog.filters.to")} value={to} onChange={filter(setTo)} />
      </Box>
      <Paper variant="outlined" sx={{ overflow: "auto" }}>
        <Table size="small" aria-label={t("auditLog.title")}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{t("auditLog.columns.when")}</TableCell>
              <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t("auditLog.columns.action")}</TableCell>
              <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t("auditLog.columns.actor")}</TableCell>
              <TableCell>{t("auditLog.columns.target")}</TableCell>
              <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("auditLog.columns.ip")}</TableCell>
              <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("auditLog.columns.details")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.data?.entries.map((e) => (
              <TableRow key={e.id} data-testid="audit-row" sx={{ verticalAlign: "top" }}>
                <TableCell sx={{ whiteSpace: "nowrap" }}>
                  {formatInZone(e.createdAt, timeZone, "dd/MM/yyyy HH:mm:ss")}
                  {/* on a phone the action and who did it go under the time */}
                  <Box sx={{ display: { sm: "none" }, whiteSpace: "normal" }}>
                    <Typography variant="body2" fontWeight={600}>
                      {t(`auditLog.actions.${e.action}`)}
                    </Typography>
                    <Typography variant="body2">{e.actor.name || "—"}</Typography>
                  </Box>
                </TableCell>
                <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t(`auditLog.actions.${e.action}`)}</TableCell>
                <TableCell sx={{ display: { xs: "none", sm: "table-cell" }, overflowWrap: "anywhere" }}>{e.actor.name || "—"}</TableCell>
                <TableCell sx={{ overflowWrap: "anywhere" }}>
                  {e.target.type === "contact" ? t("auditLog.contactTarget", { id: e.target.id }) : e.target.label}
                  <Typography component="div" variant="caption" color="text.secondary" sx={{ display: { md: "none" } }}>
                    {e.ip}
                    <br />
                    <DetailsText entry={e} />
                  </Typography>
                </TableCell>
                <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{e.ip}</TableCell>
                <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>
                  <DetailsText entry={e} />
                </TableCell>
              </TableRow>
            ))}
            {list.isLoading && <TableRowsSkeleton columns={6} />}
            {list.isSuccess && list.data.entries.length === 0 && <EmptyTableRow colSpan={6}>{t("auditLog.empty")}</EmptyTableRow>}
          </TableBody>
        </Table>
      </Paper>
      {pages > 1 && (
        <Box sx={{ display: "flex", justifyContent: "center", mt: 2 }}>
          <Pagination count={pages} page={page} onChange={(_, p) => setPage(p)} />
        </Box>
      )}
    </>
  );
}
