import { useParams } from "react-router-dom";
import { formatMoney } from "@atende/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { formatDate } from "../../lib/format-date";
import { toastError } from "../../lib/toast-error";
import { billingKeys, fetchSandboxCharge, paySandboxCharge } from "./api/billing";
import { PublicCardPage } from "./components/public-card-page";

/**
 * The built-in sandbox PSP's page (development and demos): it stands for the payer's bank app and
 * pays a charge, which reaches the server as a real PSP's confirmation would.
 */
export default function PixSandboxPage() {
  const { t } = useTranslation();
  const { txid = "" } = useParams();
  const queryClient = useQueryClient();
  const charge = useQuery({ queryKey: billingKeys.sandboxCharge(txid), queryFn: ({ signal }) => fetchSandboxCharge(txid, signal) });
  const pay = useMutation({
    mutationFn: () => paySandboxCharge(txid),
    onSuccess: (c) => queryClient.setQueryData(billingKeys.sandboxCharge(txid), c),
    onError: toastError,
  });
  const c = charge.data;
  return (
    <PublicCardPage title={t("subscription.sandbox.title")} maxWidth={420}>
      <Alert severity="warning">{t("subscription.sandbox.notice")}</Alert>
      {charge.isError && <Alert severity="error">{t("subscription.sandbox.notFound")}</Alert>}
      {c && (
        <>
          <Typography variant="h4" color="primary">
            {formatMoney(Number(c.amount))}
          </Typography>
          <Typography variant="body2">{t("subscription.sandbox.receiver", { chave: c.chave })}</Typography>
          <Typography variant="body2" sx={{ wordBreak: "break-all" }}>
            txid: {c.txid}
          </Typography>
          <Typography data-testid="sandbox-status">{t(`subscription.sandbox.status.${c.status}`, { defaultValue: c.status, date: formatDate(c.paidAt) })}</Typography>
          {/* only a charge still payable offers to pay: a paid or expired one says so and nothing more */}
          {c.status === "ATIVA" && (
            <Button variant="contained" size="large" disabled={pay.isPending} onClick={() => pay.mutate()}>
              {t("subscription.sandbox.pay")}
            </Button>
          )}
        </>
      )}
    </PublicCardPage>
  );
}
