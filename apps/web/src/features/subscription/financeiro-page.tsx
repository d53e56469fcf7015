import { useState } from "react";
import { MenuItem, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import { PageHeading } from "../../components/page-heading";
import { SearchField } from "../../components/search-field";
import { useDebouncedValue } from "../../components/use-debounced-value";
import type { InvoiceFilters } from "./api/billing";
import { InvoicesTable } from "./components/invoices-table";

/** /financeiro (super administrators): every company's invoices, searched by company or detail and filtered by status. */
export default function FinanceiroPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState<InvoiceFilters["status"] | "">("");
  const debounced = useDebouncedValue(search.trim());
  return (
    <>
      <PageHeading title={t("subscription.financeiro.title")}>
        <SearchField value={search} onChange={setSearch} placeholder={t("subscription.financeiro.search")} />
        <TextField select size="small" label={t("subscription.financeiro.status")} value={status} onChange={(e) => setStatus(e.target.value as InvoiceFilters["status"] | "")} sx={{ minWidth: 160 }}>
          <MenuItem value="">{t("subscription.financeiro.all")}</MenuItem>
          <MenuItem value="open">{t("subscription.invoices.display.open")}</MenuItem>
          <MenuItem value="overdue">{t("subscription.invoices.display.overdue")}</MenuItem>
          <MenuItem value="paid">{t("subscription.invoices.display.paid")}</MenuItem>
        </TextField>
      </PageHeading>
      <InvoicesTable filters={{ search: debounced, status: status || undefined }} withCompany height="calc(100vh - 170px)" />
    </>
  );
}
