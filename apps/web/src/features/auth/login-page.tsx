import { useEffect, useId, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router-dom";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { ApiError } from "../../lib/api";
import { formatDate } from "../../lib/format-date";
import { logFailure } from "../../lib/log-failure";
import { toastError } from "../../lib/toast-error";
import { useSession } from "../../lib/session";
import { ENDED_ELSEWHERE_KEY } from "../../lib/storage";
import "./login.css";

/** The path of the pay link a refused login carries (the page is this app's, whatever host PUBLIC_URL names). */
function payPathOf(payUrl: unknown): string | null {
  if (typeof payUrl !== "string") return null;
  try {
    return new URL(payUrl, window.location.origin).pathname;
  } catch (err) {
    logFailure("the refusal's pay link is not a URL", err);
    return null;
  }
}

/**
 * The login page. It is the first page most visits load, so it is drawn with plain elements and CSS in
 * MUI's look (`login.css`, colours from `app/base.css`) rather than with MUI: MUI and its theme load
 * with the signed-in app instead (docs/performance.md, "A light web app").
 */
export default function LoginPage() {
  const { t } = useTranslation();
  const { login } = useSession();
  const navigate = useNavigate();
  const id = useId();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  // a login refused after the due date: the date, and the signed link to pay the open invoice
  const [expired, setExpired] = useState<{ date: string; payPath: string | null } | null>(null);
  // this tab's session was ended by a login elsewhere: said once, here, after the reload
  const [endedElsewhere] = useState(() => sessionStorage.getItem(ENDED_ELSEWHERE_KEY) === "1");
  useEffect(() => sessionStorage.removeItem(ENDED_ELSEWHERE_KEY), []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!email.trim() || !password) return;
    setBusy(true);
    try {
      const res = await login(email, password);
      if (res.warningDays !== undefined) {
        toast.warn(t("login.dueSoon", { count: res.warningDays }));
      }
      navigate("/tickets");
    } catch (err) {
      if (err instanceof ApiError && err.code === "ERR_SUBSCRIPTION_EXPIRED") {
        const due = typeof err.body.dueDate === "string" ? err.body.dueDate : "";
        const payPath = payPathOf(err.body.payUrl);
        // said once, in the card (with the link to pay), not again in a toast
        setExpired({ date: due, payPath });
      } else {
        setExpired(null);
        toastError(err);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="login-backdrop">
      <form className="login-card" onSubmit={submit}>
        <div className="login-head">
          <div className="login-mark" aria-hidden="true">
            <svg width="24" height="24" viewBox="0 0 24 24" fill="currentColor">
              <path d="M20 2H4c-1.1 0-2 .9-2 2v18l4-4h14c1.1 0 2-.9 2-2V4c0-1.1-.9-2-2-2" />
            </svg>
          </div>
          <div className="login-brand">Atende</div>
          <h1 className="login-title">{t("login.title")}</h1>
          <p className="login-subtitle">{t("login.subtitle")}</p>
        </div>
        <div className="login-field">
          <label htmlFor={`${id}-email`}>{t("login.email")} *</label>
          <input id={`${id}-email`} type="email" name="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoFocus autoComplete="username" />
        </div>
        <div className="login-field">
          <label htmlFor={`${id}-password`}>{t("login.password")} *</label>
          <input
            id={`${id}-password`}
            type="password"
            name="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            autoComplete="current-password"
          />
        </div>
        {endedElsewhere && !expired && (
          <div className="login-expired" role="alert" data-testid="login-ended-elsewhere">
            <p>{t("login.loggedElsewhere")}</p>
          </div>
        )}
        {expired && (
          <div className="login-expired" role="alert" data-testid="login-expired">
            <p>{t(expired.payPath ? "login.expiredPay" : "login.expired", { date: formatDate(expired.date) })}</p>
            {expired.payPath && (
              <Link to={expired.payPath} className="login-pay" data-testid="login-pay-link">
                {t("login.payNow")}
              </Link>
            )}
          </div>
        )}
        <button type="submit" className="login-submit" disabled={busy}>
          {t("login.submit")}
        </button>
        <nav className="login-links">
          <Link to="/forgetpsw">{t("login.forgot")}</Link>
          <Link to="/signup">{t("login.signup")}</Link>
        </nav>
      </form>
    </main>
  );
}
