import type { UIEvent } from "react";
import { IconButton, Paper, Table, TableBody, TableCell, TableHead, TableRow, Tooltip } from "@mui/material";
import EditIcon from "@mui/icons-material/Edit";
import VisibilityIcon from "@mui/icons-material/Visibility";
import { useTranslation } from "react-i18next";
import { TableRowsSkeleton } from "../../../components/table-rows-skeleton";
import { EmptyTableRow } from "../../../components/empty-state";
import { formatInZone, useCompanyTimeZone } from "../../../lib/time-zone";

export interface TemplateRow {
  id: number;
  title: string;
  updatedAt: string;
}

interface Props {
  label: string;
  rows: TemplateRow[];
  loading: boolean;
  error: boolean;
  empty: string;
  onScroll(e: UIEvent<HTMLElement>): void;
  onView(id: number): void;
  onEdit(id: number): void;
}

/** The SMS and e-mail template lists (spec 3 §2): name, updated at, actions (view, edit); more rows on scroll. */
export function TemplateListTable({ label, rows, loading, error, empty, onScroll, onView, onEdit }: Props) {
  const { t } = useTranslation();
  const timeZone = useCompanyTimeZone();
  return (
    <Paper variant="outlined" onScroll={onScroll} data-testid="template-list" sx={{ height: "calc(100vh - 230px)", minHeight: 320, overflow: "auto" }}>
      <Table size="small" stickyHeader aria-label={label}>
        <TableHead>
          <TableRow>
            <TableCell>{t("campaignTemplates.columns.name")}</TableCell>
            <TableCell sx={{ whiteSpace: "nowrap" }}>{t("messageTemplates.updatedAt")}</TableCell>
            <TableCell align="right" sx={{ width: 110 }}>
              {t("campaignTemplates.columns.actions")}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id} hover data-testid="message-template-row">
              <TableCell sx={{ wordBreak: "break-word" }}>{row.title}</TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{formatInZone(row.updatedAt, timeZone)}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                <Tooltip title={t("messageTemplates.view")}>
                  <IconButton size="small" aria-label={t("messageTemplates.view")} onClick={() => onView(row.id)}>
                    <VisibilityIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t("messageTemplates.edit")}>
                  <IconButton size="small" aria-label={t("messageTemplates.edit")} onClick={() => onEdit(row.id)}>
                    <EditIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </TableCell>
            </TableRow>
          ))}
          {loading && <TableRowsSkeleton columns={3} />}
          {error && <EmptyTableRow colSpan={3}>{t("campaignTemplates.loadError")}</EmptyTableRow>}
          {!loading && !error && rows.length === 0 && <EmptyTableRow colSpan={3}>{empty}</EmptyTableRow>}
        </TableBody>
      </Table>
    </Paper>
  );
}
