import { useState } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Box, Button, IconButton, MenuItem, Pagination, Paper, Table, TableBody, TableCell, TableHead, TableRow, TextField, Tooltip, Typography } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import { useTranslation } from "react-i18next";
import { OPT_OUT_CHANNELS, OPT_OUT_PAGE_SIZE, type OptOut, type OptOutChannel } from "@atende/shared";
import { ConfirmationDialog } from "../../components/confirmation-dialog";
import { EmptyTableRow } from "../../components/empty-state";
import { PageHeading } from "../../components/page-heading";
import { SearchField } from "../../components/search-field";
import { TableRowsSkeleton } from "../../components/table-rows-skeleton";
import { useDebouncedValue } from "../../components/use-debounced-value";
import { toast } from "../../lib/toast";
import { toastError } from "../../lib/toast-error";
import { formatInZone, useCompanyTimeZone } from "../../lib/time-zone";
import { fetchOptOuts, optOutKeys, removeOptOut, type OptOutFilters } from "./api/opt-outs";
import { OptOutDialog } from "./components/opt-out-dialog";

/** A number as people read it (+5511988880001); an e-mail address as stored. */
const shown = (o: Pick<OptOut, "channel" | "address">) => (o.channel === "sms" ? `+${o.address}` : o.address);

/**
 * What put the entry on the list: a campaign's reply or unsubscribe, a bounce, a user here; by its
 * name (the user's, the campaign's title) while it exists, else by its id.
 */
function Reference({ reference, name }: { reference: string | null; name: string | null }) {
  const { t } = useTranslation();
  const [kind, id] = (reference ?? "").split(":");
  if (kind === "sms-campaign") return <>{name ? t("optOuts.references.smsCampaignNamed", { name }) : t("optOuts.references.smsCampaign", { id })}</>;
  if (kind === "email-campaign") return <>{name ? t("optOuts.references.emailCampaignNamed", { name }) : t("optOuts.references.emailCampaign", { id })}</>;
  if (kind === "user") return <>{name ?? t("optOuts.references.user", { id })}</>;
  return <>{reference ?? "—"}</>;
}

/**
 * The company's opt-out list (docs/architecture.md "Opt-out list"): numbers and addresses no campaign
 * writes to, fed by SAIR/PARAR/STOP replies, unsubscribes and hard bounces; supervisors and above add
 * one by hand or remove one (after a confirmation: campaigns then write to it again).
 */
export default function OptOutsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const timeZone = useCompanyTimeZone();
  const [channel, setChannel] = useState<OptOutChannel | "">("");
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<OptOut | null>(null);
  const filters: OptOutFilters = { channel, search: useDebouncedValue(search.trim()) };
  const list = useQuery({ queryKey: optOutKeys.page(filters, page), queryFn: ({ signal }) => fetchOptOuts(filters, page, signal), placeholderData: keepPreviousData });
  const pages = Math.max(1, Math.ceil((list.data?.count ?? 0) / OPT_OUT_PAGE_SIZE));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: optOutKeys.all });
  const filter = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage(1);
  };

  async function confirmRemove(o: OptOut) {
    try {
      await removeOptOut(o);
      toast.success(t("optOuts.removed"));
      refresh();
    } catch (err) {
      toastError(err);
    }
  }

  return (
    <>
      <PageHeading title={t("optOuts.title")} count={list.data?.count}>
        <SearchField value={search} onChange={filter(setSearch)} placeholder={t("optOuts.searchPlaceholder")} />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
          {t("optOuts.add")}
        </Button>
      </PageHeading>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t("optOuts.explain")}
      </Typography>
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "minmax(0, 240px)" }, mb: 2 }}>
        <TextField
          select
          size="small"
          label={t("optOuts.filters.channel")}
          value={channel}
          slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }} onChange={(e) => filter(setChannel)(e.target.value as OptOutChannel | "")}>
          <MenuItem value="">{t("optOuts.filters.all")}</MenuItem>
          {OPT_OUT_CHANNELS.map((c) => (
            <MenuItem key={c} value={c}>
              {t(`optOuts.channels.${c}`)}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <Paper variant="outlined" sx={{ overflow: "auto" }}>
        <Table size="small" aria-label={t("optOuts.title")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("optOuts.columns.address")}</TableCell>
              <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t("optOuts.columns.channel")}</TableCell>
              <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t("optOuts.columns.source")}</TableCell>
              <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("optOuts.columns.reference")}</TableCell>
              <TableCell sx={{ display: { xs: "none", md: "table-cell" }, whiteSpace: "nowrap" }}>{t("optOuts.columns.when")}</TableCell>
              <TableCell align="right">{t("optOuts.columns.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.data?.results.map((o) => (
              <TableRow key={`${o.channel}:${o.address}`} hover data-testid="opt-out-row" sx={{ verticalAlign: "top" }}>
                <TableCell sx={{ overflowWrap: "anywhere" }}>
                  {shown(o)}
                  {/* on a phone the channel, source and date go under the address */}
                  <Typography component="div" variant="caption" color="text.secondary" sx={{ display: { md: "none" } }}>
                    <Box component="span" sx={{ display: { sm: "none" } }}>
                      {t(`optOuts.channels.${o.channel}`)} · {t(`optOuts.sources.${o.source}`)} ·{" "}
                    </Box>
                    <Reference reference={o.reference} name={o.referenceName} /> · {formatInZone(o.createdAt, timeZone)}
                  </Typography>
                </TableCell>
                <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t(`optOuts.channels.${o.channel}`)}</TableCell>
                <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t(`optOuts.sources.${o.source}`)}</TableCell>
                <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>
                  <Reference reference={o.reference} name={o.referenceName} />
                </TableCell>
                <TableCell sx={{ display: { xs: "none", md: "table-cell" }, whiteSpace: "nowrap" }}>{formatInZone(o.createdAt, timeZone)}</TableCell>
                <TableCell align="right">
                  <Tooltip title={t("optOuts.remove")}>
                    <IconButton size="small" color="error" aria-label={t("optOuts.remove")} onClick={() => setRemoving(o)}>
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {list.isLoading && <TableRowsSkeleton columns={6} />}
            {list.isError && <EmptyTableRow colSpan={6}>{t("optOuts.loadError")}</EmptyTableRow>}
            {list.isSuccess && list.data.results.length === 0 && (
              <EmptyTableRow colSpan={6}>{filters.search || channel ? t("optOuts.noMatch") : t("optOuts.empty")}</EmptyTableRow>
            )}
          </TableBody>
        </Table>
      </Paper>
      {pages > 1 && (
        <Box sx={{ display: "flex", justifyContent: "center", mt: 2 }}>
          <Pagination count={pages} page={page} onChange={(_, p) => setPage(p)} siblingCount={0} />
        </Box>
      )}
      <OptOutDialog open={adding} onClose={() => setAdding(false)} onSaved={refresh} />
      <ConfirmationDialog
        open={removing !== null}
        title={t("optOuts.removeTitle", { address: removing ? shown(removing) : "" })}
        confirmLabel={t("optOuts.remove")}
        onClose={() => setRemoving(null)}
        onConfirm={() => removing && void confirmRemove(removing)}
      >
        {t("optOuts.removeMessage")}
      </ConfirmationDialog>
    </>
  );
}
