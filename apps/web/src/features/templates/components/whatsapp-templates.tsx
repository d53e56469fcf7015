import { useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Box, Chip, IconButton, MenuItem, Paper, Table, TableBody, TableCell, TableHead, TableRow, TextField, Tooltip } from "@mui/material";
import ImageOutlinedIcon from "@mui/icons-material/ImageOutlined";
import VisibilityIcon from "@mui/icons-material/Visibility";
import { useTranslation } from "react-i18next";
import { SearchField } from "../../../components/search-field";
import { TableRowsSkeleton } from "../../../components/table-rows-skeleton";
import { useDebouncedValue } from "../../../components/use-debounced-value";
import { EmptyTableRow } from "../../../components/empty-state";
import { fetchBusinessOptions, fetchTemplates, fetchTemplateTypes, templateKeys, type TemplateFilters } from "../api/templates";
import { CategoryBadge } from "./category-badge";
import { TemplateViewDialog } from "./template-view-dialog";

/** Template lists wait 300 ms after a filter change (spec 3 §9). */
const FILTER_DEBOUNCE_MS = 300;
const COLUMNS = 9;
/** An empty choice ("Todos") shows as a value under a raised label. */
const SELECT_SLOTS = { inputLabel: { shrink: true }, select: { displayEmpty: true } } as const;
const SELECT_SX = { minWidth: { xs: "calc(50% - 6px)", sm: 180 } } as const;

/** The WhatsApp tab of /templates: filters and the read-only list of the businesses' templates. */
export function WhatsappTemplates() {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [businessId, setBusinessId] = useState<number | "">("");
  const [status, setStatus] = useState<TemplateFilters["status"]>("");
  const [templateTypeId, setTemplateTypeId] = useState<number | "">("");
  const filters = useDebouncedValue<TemplateFilters>({ name: name.trim(), businessId, status, templateTypeId }, FILTER_DEBOUNCE_MS);
  const list = useQuery({ queryKey: templateKeys.list(filters), queryFn: ({ signal }) => fetchTemplates(filters, signal), placeholderData: keepPreviousData });
  const types = useQuery({ queryKey: templateKeys.types, queryFn: fetchTemplateTypes });
  const businesses = useQuery({ queryKey: templateKeys.businesses, queryFn: fetchBusinessOptions });
  const [viewing, setViewing] = useState<number | null>(null);
  const filtered = filters.name !== "" || filters.businessId !== "" || filters.status !== "" || filters.templateTypeId !== "";

  return (
    <>
      <Box sx={{ display: "flex", gap: 1.5, flexWrap: "wrap", mb: 2 }}>
        <Box sx={{ flex: { xs: "1 1 100%", sm: "0 1 260px" }, "& .MuiTextField-root": { width: "100%" } }}>
          <SearchField value={name} onChange={setName} placeholder={t("campaignTemplates.filters.search")} />
        </Box>
        <TextField
          select
          size="small"
          label={t("campaignTemplates.filters.business")}
          slotProps={SELECT_SLOTS}
          sx={SELECT_SX}
          value={businessId}
          onChange={(e) => setBusinessId(e.target.value === "" ? "" : Number(e.target.value))}
        >
          <MenuItem value="">{t("campaignTemplates.filters.all")}</MenuItem>
          {(businesses.data ?? []).map((b) => (
            <MenuItem key={b.id} value={b.id}>
              {b.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t("campaignTemplates.filters.status")}
          value={status}
          onChange={(e) => setStatus(e.target.value as TemplateFilters["status"])}
          slotProps={SELECT_SLOTS}
          sx={SELECT_SX}
        >
          <MenuItem value="">{t("campaignTemplates.filters.all")}</MenuItem>
          <MenuItem value="true">{t("campaignTemplates.status.active")}</MenuItem>
          <MenuItem value="false">{t("campaignTemplates.status.inactive")}</MenuItem>
        </TextField>
        <TextField
          select
          size="small"
          label={t("campaignTemplates.filters.type")}
          slotProps={SELECT_SLOTS}
          sx={SELECT_SX}
          value={templateTypeId}
          onChange={(e) => setTemplateTypeId(e.target.value === "" ? "" : Number(e.target.value))}
        >
          <MenuItem value="">{t("campaignTemplates.filters.all")}</MenuItem>
          {(types.data ?? []).map((type) => (
            <MenuItem key={type.id} value={type.id}>
              {type.name}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <Paper variant="outlined" sx={{ maxHeight: "calc(100vh - 240px)", minHeight: 320, overflow: "auto" }}>
        <Table size="small" stickyHeader aria-label={t("campaignTemplates.whatsappTitle")} sx={{ minWidth: 960 }}>
          <TableHead>
            <TableRow>
              <TableCell>{t("campaignTemplates.columns.id")}</TableCell>
              <TableCell>{t("campaignTemplates.columns.name")}</TableCell>
              <TableCell>{t("campaignTemplates.columns.status")}</TableCell>
              <TableCell>{t("campaignTemplates.columns.category")}</TableCell>
              <TableCell align="center">{t("campaignTemplates.columns.image")}</TableCell>
              <TableCell>{t("campaignTemplates.columns.business")}</TableCell>
              <TableCell>{t("campaignTemplates.columns.type")}</TableCell>
              <TableCell align="center">{t("campaignTemplates.columns.variables")}</TableCell>
              <TableCell align="right">{t("campaignTemplates.columns.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(list.data ?? []).map((tpl) => {
              const isImage = tpl.type === "IMAGE";
              return (
                <TableRow key={tpl.id} hover data-testid="template-row">
                  <TableCell>{tpl.id}</TableCell>
                  <TableCell sx={{ fontWeight: 500 }}>{tpl.name}</TableCell>
                  <TableCell>
                    <Tooltip describeChild title={tpl.validation.valid ? tpl.validation.message || t("campaignTemplates.status.defaultTooltip") : tpl.validation.message}>
                      <Chip
                        size="small"
                        variant="outlined"
                        data-testid="template-status"
                        color={tpl.validation.valid ? "success" : "default"}
                        label={tpl.validation.valid ? t("campaignTemplates.status.active") : t("campaignTemplates.status.inactive")}
                      />
                    </Tooltip>
                  </TableCell>
                  <TableCell>
                    <CategoryBadge category={tpl.category} />
                  </TableCell>
                  <TableCell align="center">{isImage && <ImageOutlinedIcon fontSize="small" color="action" aria-label={t("campaignTemplates.imageHeader")} />}</TableCell>
                  <TableCell>{tpl.Business.name}</TableCell>
                  <TableCell>{tpl.TemplateType.name}</TableCell>
                  <TableCell align="center" sx={{ whiteSpace: "nowrap" }} data-testid="template-variables">
                    {tpl.variableCount}
                    {isImage && (
                      <Tooltip describeChild title={t("campaignTemplates.imageTooltip")}>
                        <Chip size="small" label="IMAGE" color="info" sx={{ ml: 1, height: 20, fontSize: 10 }} data-testid="image-badge" />
                      </Tooltip>
                    )}
                  </TableCell>
                  <TableCell align="right">
                    <Tooltip title={t("campaignTemplates.actions.view")}>
                      <IconButton size="small" aria-label={t("campaignTemplates.actions.view")} onClick={() => setViewing(tpl.id)}>
                        <VisibilityIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                </TableRow>
              );
            })}
            {list.isLoading && <TableRowsSkeleton columns={COLUMNS} />}
            {list.isError && <EmptyTableRow colSpan={COLUMNS}>{t("campaignTemplates.loadError")}</EmptyTableRow>}
            {list.isSuccess && list.data.length === 0 && (
              <EmptyTableRow colSpan={COLUMNS}>{filtered ? t("campaignTemplates.noMatch") : t("campaignTemplates.empty")}</EmptyTableRow>
            )}
          </TableBody>
        </Table>
      </Paper>
      <TemplateViewDialog templateId={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
