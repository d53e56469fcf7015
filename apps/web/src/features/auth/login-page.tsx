import { useState, type FormEvent } from "react";
import { Link as RouterLink, useNavigate } from "react-router-dom";
import { Box, Button, Container, Link, Paper, TextField, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { toast } from "react-toastify";
import { ApiError } from "../../lib/api";
import { toastError } from "../../lib/toast-error";
import { useSession } from "./session";

export default function LoginPage() {
  const { t } = useTranslation();
  const { login } = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      const res = await login(email, password);
      if (res.warningDays !== undefined) {
        toast.warn(t(res.warningDays === 1 ? "login.dueSoonOne" : "login.dueSoonMany", { count: res.warningDays }));
      }
      navigate("/tickets");
    } catch (err) {
      if (err instanceof ApiError && err.code === "ERR_SUBSCRIPTION_EXPIRED") {
        toast.error(t("login.expired", { date: String(err.body.dueDate ?? "") }), { autoClose: 8000 });
      } else toastError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Container maxWidth="xs" sx={{ minHeight: "100vh", display: "grid", placeItems: "center" }}>
      <Paper component="form" onSubmit={submit} sx={{ p: 4, width: "100%" }} elevation={3}>
        <Typography variant="h5" align="center" gutterBottom>
          {t("login.title")}
        </Typography>
        <TextField label={t("login.email")} type="email" name="email" value={email} onChange={(e) => setEmail(e.target.value)} fullWidth margin="normal" required autoFocus autoComplete="username" />
        <TextField label={t("login.password")} type="password" name="password" value={password} onChange={(e) => setPassword(e.target.value)} fullWidth margin="normal" required autoComplete="current-password" />
        <Button type="submit" variant="contained" fullWidth sx={{ mt: 2 }} disabled={busy}>
          {t("login.submit")}
        </Button>
        <Box sx={{ display: "flex", justifyContent: "space-between", mt: 2 }}>
          <Link component={RouterLink} to="/forgetpsw">{t("login.forgot")}</Link>
          <Link component={RouterLink} to="/signup">{t("login.signup")}</Link>
        </Box>
      </Paper>
    </Container>
  );
}
