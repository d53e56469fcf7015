import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Box, Button, Card, CardContent, Grid, Skeleton, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { atLeast, type Invoice, formatMoney } from "@atende/shared";
import { PageHeading } from "../../components/page-heading";
import { formatDate } from "../../lib/format-date";
import { useCurrentUser } from "../../lib/session";
import { toastError } from "../../lib/toast-error";
import { billingKeys, fetchSubscription, issueInvoice } from "./api/billing";
import { CheckoutDialog } from "./components/checkout-dialog";
import { InvoicesTable } from "./components/invoices-table";
import { usePaymentEvent } from "./components/use-payment-event";

function daysLeft(dueDate: string): number {
  const today = new Date();
  return Math.round((Date.parse(`${dueDate}T00:00:00Z`) - Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate())) / 86_400_000);
}

/** /subscription (company administrators): the plan and its due date, 'Assine Agora!', the invoices with the pay button. */
export default function SubscriptionPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  if (!atLeast(user, "admin")) {
    return (
      <>
        <PageHeading title={t("subscription.title")} />
        <Alert severity="info">{t("subscription.adminsOnly")}</Alert>
      </>
    );
  }
  return <CompanySubscription />;
}

function CompanySubscription() {
  const { t } = useTranslation();
  const summary = useQuery({ queryKey: billingKeys.summary, queryFn: ({ signal }) => fetchSubscription(signal) });
  const [checkout, setCheckout] = useState<{ open: boolean; invoice: Invoice | null }>({ open: false, invoice: null });
  const [noInvoice, setNoInvoice] = useState(false);
  usePaymentEvent(() => setCheckout((c) => ({ ...c, open: false })));

  const queryClient = useQueryClient();
  const [issuing, setIssuing] = useState(false);
  // 'Assine Agora!': the invoice to pay now, issued by the server if the hourly job has not yet
  const subscribeNow = async () => {
    setIssuing(true);
    try {
      const { invoice } = await issueInvoice();
      void queryClient.invalidateQueries({ queryKey: billingKeys.invoices });
      if (!invoice) return setNoInvoice(true);
      setCheckout({ open: true, invoice });
    } catch (err) {
      toastError(err);
    } finally {
      setIssuing(false);
    }
  };

  const s = summary.data;
  const left = s?.dueDate ? daysLeft(s.dueDate) : null;
  return (
    <>
      <PageHeading title={t("subscription.title")} />
      <Grid container spacing={2} sx={{ mb: 2 }}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Card variant="outlined">
            <CardContent>
              {!s ? (
                <Skeleton height={96} />
              ) : (
                <Box data-testid="subscription-summary">
                  <Typography variant="overline">{s.trial ? t("subscription.trial") : t("subscription.paidPlan")}</Typography>
                  <Typography variant="h6">
                    {s.plan.name} — {formatMoney(Number(s.plan.value))}
                    {t("subscription.checkout.perMonth")}
                  </Typography>
                  {s.dueDate && left !== null && (
                    <Typography color={left < 0 ? "error" : left <= 5 ? "warning.main" : "text.primary"}>
                      {left >= 0 ? t("subscription.daysLeft", { count: left, date: formatDate(s.dueDate) }) : t("subscription.expired", { date: formatDate(s.dueDate) })}
                    </Typography>
                  )}
                  <Typography variant="body2" color="text.secondary">
                    {t("subscription.billingEmail", { email: s.billingEmail || "—" })}
                  </Typography>
                </Box>
              )}
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }} sx={{ display: "flex", alignItems: "center" }}>
          <Button variant="contained" size="large" onClick={() => void subscribeNow()} disabled={!s || issuing}>
            {t("subscription.subscribeNow")}
          </Button>
        </Grid>
      </Grid>
      {noInvoice && (
        <Alert severity="info" onClose={() => setNoInvoice(false)} sx={{ mb: 2 }}>
          {t("subscription.noOpenInvoice")}
        </Alert>
      )}
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t("subscription.invoices.title")}
      </Typography>
      <InvoicesTable filters={{ search: "" }} onPay={(invoice) => setCheckout({ open: true, invoice })} />
      <CheckoutDialog open={checkout.open} invoice={checkout.invoice} summary={s} onClose={() => setCheckout((c) => ({ ...c, open: false }))} />
    </>
  );
}
