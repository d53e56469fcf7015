import { Button, Chip, Paper, Table, TableBody, TableCell, TableHead, TableRow } from "@mui/material";
import { useTranslation } from "react-i18next";
import { invoiceDisplay, type Invoice, formatMoney } from "@atende/shared";
import { EmptyTableRow } from "../../../components/empty-state";
import { TableRowsSkeleton } from "../../../components/table-rows-skeleton";
import { usePagedList } from "../../../components/use-paged-list";
import { formatDate } from "../../../lib/format-date";
import { billingKeys, fetchInvoicesPage, type InvoiceFilters } from "../api/billing";

const today = () => new Date().toISOString().slice(0, 10);

interface Props {
  filters: InvoiceFilters;
  /** The super administrator's list: a company column, no pay button. */
  withCompany?: boolean;
  onPay?(invoice: Invoice): void;
  height?: string;
}

/**
 * Invoices with infinite scroll (spec §2, §4): paid shows Pago; otherwise a due date before today shows
 * Vencido on a red row; else Em Aberto. Pay is offered only when not paid.
 */
export function InvoicesTable({ filters, withCompany, onPay, height = "calc(100vh - 320px)" }: Props) {
  const { t } = useTranslation();
  const list = usePagedList({ queryKey: billingKeys.invoiceList(filters), fetchPage: (page, signal) => fetchInvoicesPage(filters, page, signal) });
  const columns = 5 + (withCompany ? 1 : 0) + (onPay ? 1 : 0);
  // on a phone the id and the detail step aside so value, due date, status and the pay button fit
  const wide = { display: { xs: "none", sm: "table-cell" } } as const;
  return (
    <Paper variant="outlined" onScroll={list.onScroll} sx={{ height, minHeight: 260, overflow: "auto" }}>
      <Table size="small" stickyHeader aria-label={t("subscription.invoices.title")} sx={{ "& .MuiTableCell-root": { px: { xs: 1, sm: 2 } } }}>
        <TableHead>
          <TableRow>
            <TableCell sx={wide}>{t("subscription.invoices.id")}</TableCell>
            {withCompany && <TableCell>{t("subscription.invoices.company")}</TableCell>}
            <TableCell sx={wide}>{t("subscription.invoices.detail")}</TableCell>
            <TableCell align="right">{t("subscription.invoices.value")}</TableCell>
            <TableCell>{t("subscription.invoices.dueDate")}</TableCell>
            <TableCell>{t("subscription.invoices.status")}</TableCell>
            {onPay && <TableCell align="right">{t("subscription.invoices.action")}</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          {list.items.map((inv) => {
            const display = invoiceDisplay(inv, today());
            return (
              <TableRow
                key={inv.id}
                hover
                data-testid="invoice-row"
                data-status={display}
                sx={display === "overdue" ? { bgcolor: (theme) => (theme.palette.mode === "dark" ? "rgba(244, 67, 54, 0.25)" : "#ffebee") } : undefined}
              >
                <TableCell sx={wide}>{inv.id}</TableCell>
                {withCompany && <TableCell>{inv.companyName}</TableCell>}
                <TableCell sx={{ ...wide, minWidth: 160, wordBreak: "break-word" }}>{inv.detail}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>{formatMoney(Number(inv.value))}</TableCell>
                <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDate(inv.dueDate)}</TableCell>
                <TableCell>
                  <Chip size="small" label={t(`subscription.invoices.display.${display}`)} color={display === "paid" ? "success" : display === "overdue" ? "error" : "default"} />
                </TableCell>
                {onPay && (
                  <TableCell align="right">
                    {inv.status !== "paid" && (
                      <Button size="small" variant="contained" onClick={() => onPay(inv)}>
                        {t("subscription.invoices.pay")}
                      </Button>
                    )}
                  </TableCell>
                )}
              </TableRow>
            );
          })}
          {(list.isLoading || list.isFetchingNextPage) && <TableRowsSkeleton columns={columns} />}
          {list.isError && <EmptyTableRow colSpan={columns}>{t("subscription.invoices.loadError")}</EmptyTableRow>}
          {list.isSuccess && list.items.length === 0 && <EmptyTableRow colSpan={columns}>{t("subscription.invoices.empty")}</EmptyTableRow>}
        </TableBody>
      </Table>
    </Paper>
  );
}
