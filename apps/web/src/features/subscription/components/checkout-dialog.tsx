import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import {
  Button,
  Card,
  CardActionArea,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Grid,
  MenuItem,
  Step,
  StepLabel,
  Stepper,
  Typography,
  useMediaQuery,
  useTheme,
} from "@mui/material";
import { useTranslation } from "react-i18next";
import { CHECKOUT_COUNTRIES, formatMoney, isUnlimited, subscriptionInput, type Invoice, type PixCharge, type PublicPlan, type SubscriptionSummary } from "@atende/shared";
import { z } from "zod";
import { FormTextField } from "../../../components/form-text-field";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { billingKeys, fetchPlans, subscribe } from "../api/billing";
import { PixStep } from "./pix-step";

/** Step 1 (Dados) of the form; the rest of POST /subscription is filled from the plan and the invoice. */
const dataStep = subscriptionInput.pick({ firstName: true, lastName: true, address2: true, city: true, state: true, zipcode: true, country: true });
type DataIn = z.input<typeof dataStep>;
type DataOut = z.output<typeof dataStep>;

interface Props {
  open: boolean;
  invoice: Invoice | null;
  summary: SubscriptionSummary | undefined;
  onClose(): void;
}

const STEPS = ["data", "personalize", "review"] as const;

/**
 * The checkout (spec §2, §4, §5): Dados, Personalizar (the company's plan preselected; choosing it
 * advances), Revisar, then the Pix step. The amount is the invoice's: the server decides it.
 */
export function CheckoutDialog({ open, invoice, summary, onClose }: Props) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down("sm"));
  const [step, setStep] = useState(0);
  const [data, setData] = useState<DataOut | null>(null);
  const [plan, setPlan] = useState<PublicPlan | null>(null);
  const [pix, setPix] = useState<PixCharge | null>(null);
  const [paying, setPaying] = useState(false);
  const plans = useQuery({ queryKey: billingKeys.plans, queryFn: ({ signal }) => fetchPlans(signal), enabled: open });
  const { control, handleSubmit, reset } = useForm<DataIn, unknown, DataOut>({
    resolver: zodResolver(dataStep),
    defaultValues: { firstName: "", lastName: "", address2: "", city: "", state: "", zipcode: "", country: "BR" },
  });

  useEffect(() => {
    if (!open) return;
    setStep(0);
    setPix(null);
    setData(null);
    reset();
  }, [open, reset]);
  useEffect(() => {
    if (open && plans.data && summary) setPlan(plans.data.find((p) => p.id === summary.plan.id) ?? null);
  }, [open, plans.data, summary]);

  const nextFromData = handleSubmit((values) => {
    setData(values);
    setStep(1);
  });

  const pay = async () => {
    if (!invoice || !data) return;
    setPaying(true);
    try {
      const charge = await subscribe({ ...data, invoiceId: invoice.id, plan: plan ?? undefined, price: plan?.value, users: plan?.users, connections: plan?.connections });
      setPix(charge);
      toast.success(t("subscription.checkout.success"));
    } catch (err) {
      toastError(err);
    } finally {
      setPaying(false);
    }
  };

  const ownPlanId = summary?.plan.id;
  // a limit of 0 is no limit (isUnlimited): 'Ilimitado', as sign-up shows it
  const limit = (n: number) => (isUnlimited(n) ? t("subscription.checkout.unlimited") : String(n));
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth fullScreen={fullScreen} aria-labelledby="checkout-title">
      <DialogTitle id="checkout-title">{t("subscription.checkout.title")}</DialogTitle>
      <DialogContent dividers>
        {pix ? (
          <PixStep pix={pix} />
        ) : (
          <>
            <Stepper activeStep={step} alternativeLabel sx={{ mb: 3 }}>
              {STEPS.map((s) => (
                <Step key={s}>
                  <StepLabel>{t(`subscription.checkout.steps.${s}`)}</StepLabel>
                </Step>
              ))}
            </Stepper>
            {step === 0 && (
              <form id="checkout-data" onSubmit={nextFromData} noValidate>
                <Grid container spacing={2}>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <FormTextField control={control} name="firstName" label={t("subscription.checkout.firstName")} required fullWidth autoFocus />
                  </Grid>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <FormTextField control={control} name="lastName" label={t("subscription.checkout.lastName")} fullWidth />
                  </Grid>
                  <Grid size={12}>
                    <FormTextField control={control} name="address2" label={t("subscription.checkout.address")} required fullWidth />
                  </Grid>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <FormTextField control={control} name="city" label={t("subscription.checkout.city")} required fullWidth />
                  </Grid>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <FormTextField control={control} name="state" label={t("subscription.checkout.state")} fullWidth />
                  </Grid>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <FormTextField control={control} name="zipcode" label={t("subscription.checkout.zipcode")} required fullWidth />
                  </Grid>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <FormTextField control={control} name="country" label={t("subscription.checkout.country")} required fullWidth select>
                      {CHECKOUT_COUNTRIES.map((c) => (
                        <MenuItem key={c} value={c}>
                          {t(`subscription.checkout.countries.${c}`)}
                        </MenuItem>
                      ))}
                    </FormTextField>
                  </Grid>
                </Grid>
              </form>
            )}
            {step === 1 && (
              <Grid container spacing={2}>
                {(plans.data ?? []).map((p) => (
                  <Grid key={p.id} size={{ xs: 12, sm: 6 }}>
                    <Card variant="outlined" sx={{ borderColor: p.id === plan?.id ? "primary.main" : undefined, borderWidth: p.id === plan?.id ? 2 : 1 }}>
                      <CardActionArea
                        disabled={p.id !== ownPlanId}
                        onClick={() => {
                          setPlan(p);
                          setStep(2);
                        }}
                        data-testid={p.id === ownPlanId ? "own-plan" : undefined}
                      >
                        <CardContent>
                          <Typography variant="h6">{p.name}</Typography>
                          <Typography variant="h5" color="primary">
                            {formatMoney(Number(p.value))}
                            <Typography component="span" variant="body2" color="text.secondary">
                              {t("subscription.checkout.perMonth")}
                            </Typography>
                          </Typography>
                          <Typography variant="body2">{t("subscription.checkout.limits", { users: limit(p.users), connections: limit(p.connections), queues: limit(p.queues) })}</Typography>
                          {p.id !== ownPlanId && (
                            <Typography variant="caption" color="text.secondary">
                              {t("subscription.checkout.otherPlan")}
                            </Typography>
                          )}
                        </CardContent>
                      </CardActionArea>
                    </Card>
                  </Grid>
                ))}
              </Grid>
            )}
            {step === 2 && data && invoice && (
              <Grid container spacing={1} data-testid="checkout-review">
                <Grid size={12}>
                  <Typography variant="subtitle2">{t("subscription.checkout.reviewName")}</Typography>
                  <Typography>{[data.firstName, data.lastName].filter(Boolean).join(" ")}</Typography>
                </Grid>
                <Grid size={12}>
                  <Typography variant="subtitle2">{t("subscription.checkout.reviewAddress")}</Typography>
                  <Typography>{[data.address2, data.city, data.state, data.zipcode, t(`subscription.checkout.countries.${data.country}`)].filter(Boolean).join(", ")}</Typography>
                </Grid>
                <Grid size={12}>
                  <Typography variant="subtitle2">{t("subscription.checkout.reviewInvoice")}</Typography>
                  <Typography>{invoice.detail}</Typography>
                </Grid>
                <Grid size={12}>
                  <Typography variant="subtitle2">{t("subscription.checkout.reviewTotal")}</Typography>
                  <Typography variant="h5" color="primary" data-testid="checkout-total">
                    {formatMoney(Number(invoice.value))}
                  </Typography>
                </Grid>
              </Grid>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{pix ? t("subscription.checkout.close") : t("subscription.checkout.cancel")}</Button>
        {!pix && step > 0 && <Button onClick={() => setStep((s) => s - 1)}>{t("subscription.checkout.back")}</Button>}
        {!pix && step === 0 && (
          <Button type="submit" form="checkout-data" variant="contained">
            {t("subscription.checkout.next")}
          </Button>
        )}
        {!pix && step === 1 && (
          <Button variant="contained" onClick={() => setStep(2)} disabled={!plan || plan.id !== ownPlanId}>
            {t("subscription.checkout.next")}
          </Button>
        )}
        {!pix && step === 2 && (
          <Button variant="contained" onClick={() => void pay()} disabled={paying}>
            {t("subscription.checkout.pay")}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
