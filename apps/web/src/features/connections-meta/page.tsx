import { useMemo, useState } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  Box,
  Button,
  Checkbox,
  Chip,
  IconButton,
  MenuItem,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from "@mui/material";
import BusinessIcon from "@mui/icons-material/Business";
import EditIcon from "@mui/icons-material/Edit";
import EditNoteIcon from "@mui/icons-material/EditNote";
import { useTranslation } from "react-i18next";
import { can, canVisit, channel, type OfficialWhatsapp } from "@atende/shared";
import { PageHeading } from "../../components/page-heading";
import { SearchField } from "../../components/search-field";
import { TableRowsSkeleton } from "../../components/table-rows-skeleton";
import { useDebouncedValue } from "../../components/use-debounced-value";
import { useSocketEvent } from "../../lib/use-socket-event";
import { useCurrentUser } from "../../lib/session";
import { businessKeys, fetchBusinesses } from "./api/businesses";
import { fetchOfficialNumbers, officialKeys, type OfficialFilters } from "./api/official-whatsapp";
import { BusinessesDialog } from "./components/businesses-dialog";
import { EditNumbersDialog } from "./components/edit-numbers-dialog";
import { HealthBadges } from "./components/health-badges";
import { EmptyTableRow } from "../../components/empty-state";
import { colorChipSx } from "../../lib/contrast";

/** TIER_1K → 1K; TIER_UNLIMITED → ilimitado. */
function tierLabel(tier: string, unlimited: string): string {
  if (!tier) return "—";
  const v = tier.replace(/^TIER_/, "");
  return v === "UNLIMITED" ? unlimited : v;
}

/** Official connections (/connectionsMeta): the Cloud API phone numbers, their health and bulk edit. */
export default function ConnectionsMetaPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const canEdit = can(user, "official-connections-page:editConnection");
  // campaign settings of a number (its send rate) and the test business belong to the campaigns feature
  const usesCampaigns = canVisit(user, user.company.plan, "/campaigns");
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const phoneNumber = useDebouncedValue(search, 500);
  const [businessId, setBusinessId] = useState<number | "">("");
  const [active, setActive] = useState<OfficialFilters["active"]>("all");
  const filters: OfficialFilters = { phoneNumber, businessId, active };
  const numbers = useQuery({ queryKey: officialKeys.list(filters), queryFn: () => fetchOfficialNumbers(filters), placeholderData: keepPreviousData });
  const businesses = useQuery({ queryKey: businessKeys.all, queryFn: fetchBusinesses });
  const [selected, setSelected] = useState<Set<number>>(new Set());
  // The rows stay while the dialog fades out.
  const [editing, setEditing] = useState<{ open: boolean; rows: OfficialWhatsapp[] }>({ open: false, rows: [] });
  const [businessesOpen, setBusinessesOpen] = useState(false);

  // Quality, account and session changes arrive as connection updates.
  useSocketEvent(channel.whatsapp(user.companyId), () => {
    void queryClient.invalidateQueries({ queryKey: officialKeys.all });
  });

  const rows = useMemo(() => numbers.data ?? [], [numbers.data]);
  const visibleSelected = rows.filter((r) => selected.has(r.id));
  const allChecked = rows.length > 0 && visibleSelected.length === rows.length;
  const toggle = (id: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleAll = () => setSelected(allChecked ? new Set() : new Set(rows.map((r) => r.id)));

  function saved(records: OfficialWhatsapp[]) {
    const byId = new Map(records.map((r) => [r.id, r]));
    queryClient.setQueryData<OfficialWhatsapp[]>(officialKeys.list(filters), (old = []) => old.map((r) => byId.get(r.id) ?? r));
    void queryClient.invalidateQueries({ queryKey: officialKeys.all });
    setSelected(new Set());
  }

  const columns = (canEdit ? 9 : 7) + (usesCampaigns ? 1 : 0);
  return (
    <>
      <PageHeading title={t("connectionsMeta.title")} count={numbers.data?.length}>
        {canEdit && (
          <Button variant="outlined" startIcon={<EditNoteIcon />} disabled={visibleSelected.length === 0} onClick={() => setEditing({ open: true, rows: visibleSelected })}>
            {t("connectionsMeta.bulkEdit", { count: visibleSelected.length })}
          </Button>
        )}
        <Button variant="contained" startIcon={<BusinessIcon />} onClick={() => setBusinessesOpen(true)}>
          {t("connectionsMeta.businesses.open")}
        </Button>
      </PageHeading>
      <Box sx={{ display: "flex", gap: 1.5, flexWrap: "wrap", mb: 2 }}>
        <SearchField value={search} onChange={setSearch} placeholder={t("connectionsMeta.filters.phone")} />
        <TextField
          select
          size="small"
          label={t("connectionsMeta.filters.business")}
          value={businessId === "" ? "" : String(businessId)}
          onChange={(e) => setBusinessId(e.target.value === "" ? "" : Number(e.target.value))}
          slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="">{t("connectionsMeta.filters.allBusinesses")}</MenuItem>
          {(businesses.data ?? []).map((b) => (
            <MenuItem key={b.id} value={String(b.id)}>
              {b.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t("connectionsMeta.filters.active")}
          value={active}
          onChange={(e) => setActive(e.target.value as OfficialFilters["active"])}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value="all">{t("connectionsMeta.active.all")}</MenuItem>
          <MenuItem value="active">{t("connectionsMeta.active.active")}</MenuItem>
          <MenuItem value="inactive">{t("connectionsMeta.active.inactive")}</MenuItem>
        </TextField>
      </Box>
      <Paper variant="outlined" sx={{ overflow: "auto" }}>
        <Table size="small" aria-label={t("connectionsMeta.title")}>
          <TableHead>
            <TableRow>
              {canEdit && (
                <TableCell padding="checkbox">
                  <Checkbox
                    checked={allChecked}
                    indeterminate={visibleSelected.length > 0 && !allChecked}
                    onChange={toggleAll}
                    slotProps={{ input: { "aria-label": t("connectionsMeta.selectAll") } }}
                  />
                </TableCell>
              )}
              <TableCell>{t("connectionsMeta.columns.number")}</TableCell>
              <TableCell>{t("connectionsMeta.columns.tier")}</TableCell>
              <TableCell>{t("connectionsMeta.columns.active")}</TableCell>
              <TableCell>{t("connectionsMeta.columns.business")}</TableCell>
              <TableCell>{t("connectionsMeta.columns.accountStatus")}</TableCell>
              <TableCell>{t("connectionsMeta.columns.health")}</TableCell>
              <TableCell>{t("connectionsMeta.columns.transferQueue")}</TableCell>
              {usesCampaigns && (
                <TableCell align="center">
                  <Tooltip title={t("connectionsMeta.throughput.hint")}>
                    <span>{t("connectionsMeta.columns.throughput")}</span>
                  </Tooltip>
                </TableCell>
              )}
              {canEdit && <TableCell align="right">{t("connectionsMeta.columns.actions")}</TableCell>}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.id} hover selected={selected.has(r.id)} data-testid="official-row" data-phone={r.phoneNumber}>
                {canEdit && (
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={selected.has(r.id)}
                      onChange={() => toggle(r.id)}
                      slotProps={{ input: { "aria-label": t("connectionsMeta.select", { number: r.displayPhoneNumber || r.phoneNumber }) } }}
                    />
                  </TableCell>
                )}
                <TableCell>
                  <Typography fontWeight={500} sx={{ whiteSpace: "nowrap" }}>
                    {r.displayPhoneNumber || r.phoneNumber}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {r.verifiedName}
                  </Typography>
                </TableCell>
                <TableCell>
                  <Tooltip title={r.messagingLimit}>
                    <Chip size="small" variant="outlined" label={tierLabel(r.messagingLimit, t("connectionsMeta.unlimited"))} data-testid="tier" />
                  </Tooltip>
                </TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    data-testid="active"
                    color={r.active ? "success" : "default"}
                    variant={r.active ? "filled" : "outlined"}
                    label={r.active ? t("common.yes") : t("common.no")}
                  />
                </TableCell>
                <TableCell>{r.businessName}</TableCell>
                <TableCell>
                  <Typography variant="body2">{r.accountStatus || "—"}</Typography>
                  {r.accountViolation && (
                    <Chip size="small" color="error" variant="outlined" sx={{ mt: 0.5 }} label={t("connectionsMeta.violation", { type: r.violationType || "—" })} />
                  )}
                </TableCell>
                <TableCell>
                  <HealthBadges row={r} />
                </TableCell>
                <TableCell data-testid="transfer-queue">
                  {r.transferQueue ? (
                    <Chip size="small" label={r.transferQueue.name} sx={colorChipSx(r.transferQueue.color)} />
                  ) : (
                    <Typography variant="body2" color="text.secondary">
                      —
                    </Typography>
                  )}
                </TableCell>
                {usesCampaigns && (
                  <TableCell align="center" data-testid="throughput">
                    {r.throughputPerSecond}
                  </TableCell>
                )}
                {canEdit && (
                  <TableCell align="right">
                    <Tooltip title={t("connectionsMeta.editNumber")}>
                      <IconButton size="small" aria-label={t("connectionsMeta.editNumber")} onClick={() => setEditing({ open: true, rows: [r] })}>
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                )}
              </TableRow>
            ))}
            {numbers.isLoading && <TableRowsSkeleton columns={columns} />}
            {numbers.isSuccess && rows.length === 0 && (
              <EmptyTableRow colSpan={columns}>{t("connectionsMeta.empty")}</EmptyTableRow>
            )}
          </TableBody>
        </Table>
      </Paper>
      <EditNumbersDialog
        open={editing.open}
        rows={editing.rows}
        showThroughput={usesCampaigns}
        onClose={() => setEditing((e) => ({ ...e, open: false }))}
        onSaved={saved}
      />
      <BusinessesDialog open={businessesOpen} canEdit={canEdit} canCreateSandbox={usesCampaigns} onClose={() => setBusinessesOpen(false)} />
    </>
  );
}
