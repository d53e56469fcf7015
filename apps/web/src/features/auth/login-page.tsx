import { useState, type FormEvent } from "react";
import { Link as RouterLink, useNavigate } from "react-router-dom";
import { Box, Button, Link } from "@mui/material";
import { InputField } from "../../components/input-field";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { ApiError } from "../../lib/api";
import { formatDate } from "../../lib/format-date";
import { toastError } from "../../lib/toast-error";
import { AuthCard } from "./components/auth-card";
import { useSession } from "../../lib/session";

export default function LoginPage() {
  const { t } = useTranslation();
  const { login } = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!email.trim() || !password) return;
    setBusy(true);
    try {
      const res = await login(email, password);
      if (res.warningDays !== undefined) {
        toast.warn(t(res.warningDays === 1 ? "login.dueSoonOne" : "login.dueSoonMany", { count: res.warningDays }));
      }
      navigate("/tickets");
    } catch (err) {
      if (err instanceof ApiError && err.code === "ERR_SUBSCRIPTION_EXPIRED") {
        const due = typeof err.body.dueDate === "string" ? err.body.dueDate : "";
        toast.error(t("login.expired", { date: formatDate(due) }), { toastId: "subscription-expired", autoClose: 8000 });
      } else toastError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title={t("login.title")} subtitle={t("login.subtitle")} onSubmit={submit} noValidate={false}>
      <InputField label={t("login.email")} type="email" name="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoFocus autoComplete="username" />
      <InputField label={t("login.password")} type="password" name="password" value={password} onChange={(e) => setPassword(e.target.value)} required autoComplete="current-password" />
      <Button type="submit" variant="contained" size="large" fullWidth sx={{ mt: 2 }} disabled={busy}>
        {t("login.submit")}
      </Button>
      <Box sx={{ display: "flex", justifyContent: "space-between", flexWrap: "wrap", gap: 1, mt: 2 }}>
        <Link component={RouterLink} to="/forgetpsw" variant="body2">
          {t("login.forgot")}
        </Link>
        <Link component={RouterLink} to="/signup" variant="body2">
          {t("login.signup")}
        </Link>
      </Box>
    </AuthCard>
  );
}
