import { useParams } from "react-router-dom";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Box, Button, Card, CardContent, Stack, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { formatDate } from "../../lib/format-date";
import { toastError } from "../../lib/toast-error";
import { billingKeys, fetchSandboxCharge, paySandboxCharge } from "./api/billing";
import { formatBrl } from "./components/money";

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
    <Box sx={{ minHeight: "100vh", display: "flex", alignItems: "center", justifyContent: "center", p: 2, bgcolor: "background.default" }}>
      <Card sx={{ maxWidth: 420, width: "100%" }}>
        <CardContent>
          <Stack spacing={2}>
            <Typography variant="h5" component="h1">
              {t("subscription.sandbox.title")}
            </Typography>
            <Alert severity="warning">{t("subscription.sandbox.notice")}</Alert>
            {charge.isError && <Alert severity="error">{t("subscription.sandbox.notFound")}</Alert>}
            {c && (
              <>
                <Typography variant="h4" color="primary">
                  {formatBrl(c.amount)}
                </Typography>
                <Typography variant="body2">{t("subscription.sandbox.receiver", { chave: c.chave })}</Typography>
                <Typography variant="body2" sx={{ wordBreak: "break-all" }}>
                  txid: {c.txid}
                </Typography>
                <Typography data-testid="sandbox-status">{t(`subscription.sandbox.status.${c.status}`, { defaultValue: c.status, date: formatDate(c.paidAt) })}</Typography>
                <Button variant="contained" size="large" disabled={c.status !== "ATIVA" || pay.isPending} onClick={() => pay.mutate()}>
                  {t("subscription.sandbox.pay")}
                </Button>
              </>
            )}
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
