import { useEffect, useRef } from "react";
import { useNavigate } from "react-router-dom";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { channel, type PaymentEvent } from "@atende/shared";
import { formatDate } from "../../../lib/format-date";
import { useCurrentUser, useSession } from "../../../lib/session";
import { toast } from "../../../lib/toast";
import { useSocketEvent } from "../../../lib/use-socket-event";
import { billingKeys } from "../api/billing";

/** Redirect to / this long after the payment is confirmed (spec §4). */
export const PAID_REDIRECT_MS = 4000;

/**
 * `company-{id}-payment` with action CONCLUIDA (spec §4): a success toast with the new due date, the
 * session's due date updated, and a redirect to / after 4 seconds.
 */
export function usePaymentEvent(onPaid?: () => void): void {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const { setUser } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  useSocketEvent<PaymentEvent>(channel.payment(user.companyId), (event) => {
    if (event.action !== "CONCLUIDA") return;
    toast.success(t("subscription.paid", { date: formatDate(event.company.dueDate) }));
    setUser({ ...user, company: { ...user.company, dueDate: event.company.dueDate } });
    void queryClient.invalidateQueries({ queryKey: billingKeys.all });
    onPaid?.();
    timer.current = setTimeout(() => void navigate("/"), PAID_REDIRECT_MS);
  });
}
