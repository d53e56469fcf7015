import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Button, IconButton, Paper, Table, TableBody, TableCell, TableHead, TableRow, Tooltip } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import EditIcon from "@mui/icons-material/Edit";
import { useTranslation } from "react-i18next";
import type { CostCenter } from "@atende/shared";
import { PageHeading } from "../../components/page-heading";
import { SearchField } from "../../components/search-field";
import { TableRowsSkeleton } from "../../components/table-rows-skeleton";
import { useDebouncedValue } from "../../components/use-debounced-value";
import { upsertPagedItem, usePagedList } from "../../components/use-paged-list";
import { EmptyTableRow } from "../../components/empty-state";
import { costCenterKeys, fetchCostCentersPage } from "./api/cost-centers";
import { CostCenterDialog } from "./components/cost-center-dialog";

/** Cost centers (spec 3 §2): list with search (500 ms), add/edit dialog, more rows on scroll. */
export default function CostCentersPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const name = useDebouncedValue(search.trim());
  const list = usePagedList({ queryKey: costCenterKeys.list(name), fetchPage: (page, signal) => fetchCostCentersPage(name, page, signal) });
  const [dialog, setDialog] = useState<{ open: boolean; costCenter: CostCenter | null }>({ open: false, costCenter: null });

  return (
    <>
      <PageHeading title={t("costCenters.title")} count={list.data?.pages[0]?.count}>
        <SearchField value={search} onChange={setSearch} placeholder={t("costCenters.searchPlaceholder")} />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ open: true, costCenter: null })}>
          {t("costCenters.add")}
        </Button>
      </PageHeading>
      <Paper variant="outlined" onScroll={list.onScroll} sx={{ height: "calc(100vh - 170px)", minHeight: 320, overflow: "auto" }}>
        <Table size="small" stickyHeader aria-label={t("costCenters.title")}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 96 }}>{t("costCenters.columns.id")}</TableCell>
              <TableCell>{t("costCenters.columns.name")}</TableCell>
              <TableCell align="right">{t("costCenters.columns.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map((cc) => (
              <TableRow key={cc.id} hover data-testid="cost-center-row">
                <TableCell>{cc.id}</TableCell>
                <TableCell sx={{ wordBreak: "break-word" }}>{cc.name}</TableCell>
                <TableCell align="right">
                  <Tooltip title={t("costCenters.edit")}>
                    <IconButton size="small" aria-label={t("costCenters.edit")} onClick={() => setDialog({ open: true, costCenter: cc })}>
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {(list.isLoading || list.isFetchingNextPage) && <TableRowsSkeleton columns={3} />}
            {list.isError && <EmptyTableRow colSpan={3}>{t("costCenters.loadError")}</EmptyTableRow>}
            {list.isSuccess && list.items.length === 0 && <EmptyTableRow colSpan={3}>{name ? t("costCenters.noMatch") : t("costCenters.empty")}</EmptyTableRow>}
          </TableBody>
        </Table>
      </Paper>
      <CostCenterDialog
        open={dialog.open}
        costCenter={dialog.costCenter}
        onClose={() => setDialog((d) => ({ ...d, open: false }))}
        onSaved={(cc) => {
          upsertPagedItem(queryClient, costCenterKeys.lists, cc);
          void queryClient.invalidateQueries({ queryKey: costCenterKeys.lists });
        }}
      />
    </>
  );
}
