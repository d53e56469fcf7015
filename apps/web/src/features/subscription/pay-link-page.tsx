import { useParams, Link as RouterLink } from "react-router-dom";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Box, Button, Skeleton, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { formatDate } from "../../lib/format-date";
import { ApiError } from "../../lib/api";
import { toastError } from "../../lib/toast-error";
import { billingKeys, chargePublicInvoice, fetchPublicInvoice } from "./api/billing";
import { formatMoney } from "@atende/shared";
import { PixStep } from "./components/pix-step";
import { PublicCardPage } from "./components/public-card-page";

/** While the Pix step is shown, the invoice is asked again this often, to see the payment land. */
const PAID_POLL_MS = 3000;

/**
 * The public pay page of a signed pay link (`/pagar/{token}`, from a login refused after the due date
 * or an invoice e-mail): the one invoice's amount and due date and its Pix QR code and copy-and-paste,
 * without logging in. Once paid, it says so and offers the login.
 */
export default function PayLinkPage() {
  const { t } = useTranslation();
  const { token = "" } = useParams();
  const queryClient = useQueryClient();
  const charge = useMutation({
    mutationFn: () => chargePublicInvoice(token),
    onError: (err) => {
      // paid meanwhile (another tab, the bank app): show it as paid
      if (err instanceof ApiError && err.code === "ERR_INVOICE_ALREADY_PAID") void queryClient.invalidateQueries({ queryKey: billingKeys.payLink(token) });
      else toastError(err);
    },
  });
  const waiting = charge.isSuccess;
  const invoice = useQuery({
    queryKey: billingKeys.payLink(token),
    queryFn: ({ signal }) => fetchPublicInvoice(token, signal),
    retry: false,
    refetchInterval: (q) => (waiting && q.state.data?.status !== "paid" ? PAID_POLL_MS : false),
  });
  const inv = invoice.data;
  const paid = inv?.status === "paid";
  return (
    <PublicCardPage title={t("subscription.payLink.title")} maxWidth={460}>
      {invoice.isPending && <Skeleton height={96} />}
      {invoice.isError && <Alert severity="error">{t("backendErrors.ERR_PAY_LINK_INVALID")}</Alert>}
      {inv && (
        <Box data-testid="pay-link-invoice">
          <Typography variant="h4" color="primary">
            {formatMoney(inv.value)}
          </Typography>
          <Typography>{t("subscription.payLink.dueDate", { date: formatDate(inv.dueDate) })}</Typography>
        </Box>
      )}
      {paid && (
        <Alert severity="success" data-testid="pay-link-paid">
          {t("subscription.payLink.paid")}
        </Alert>
      )}
      {inv && !paid && !charge.data && (
        <Button variant="contained" size="large" onClick={() => charge.mutate()} disabled={charge.isPending}>
          {t("subscription.payLink.pay")}
        </Button>
      )}
      {inv && !paid && charge.data && <PixStep pix={charge.data.pix} />}
      <Button component={RouterLink} to="/login" variant={paid ? "contained" : "text"}>
        {t("subscription.payLink.login")}
      </Button>
    </PublicCardPage>
  );
}
