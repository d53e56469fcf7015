import { Alert, Box, CircularProgress, Paper } from "@mui/material";
import { useTranslation } from "react-i18next";
import { biUrlRefusal } from "@atende/shared";
import { PageHeading } from "../../components/page-heading";
import { errorText } from "../../lib/toast-error";
import { useBiEmbed } from "./api/bi";

/**
 * The company's BI dashboard (`/bi`, admins): its biUrl in a sandboxed frame, only when the shared
 * rule (https, a known BI host) admits it; the URL is never put into the page as HTML.
 */
export default function BiPage() {
  const { t } = useTranslation();
  const { data, error, isPending } = useBiEmbed();
  const refusal = data ? (data.biUrl.trim() === "" ? "empty" : biUrlRefusal(data.biUrl, data.extraHosts)) : null;
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2, minWidth: 0, height: "100%" }}>
      <PageHeading title={t("bi.title")} />
      {isPending && <CircularProgress sx={{ alignSelf: "center" }} />}
      {error && <Alert severity="error">{errorText(error)}</Alert>}
      {data && refusal && (
        <Alert severity={refusal === "empty" ? "info" : "warning"} data-testid="bi-refused">
          {t(`bi.refused.${refusal}`)}
        </Alert>
      )}
      {data && !refusal && (
        <Paper variant="outlined" sx={{ flexGrow: 1, minHeight: 480, overflow: "hidden", display: "flex" }}>
          <iframe
            title={t("bi.frameTitle")}
            src={data.biUrl.trim()}
            data-testid="bi-frame"
            // the dashboard runs its own scripts in its own origin; no top navigation, no access to this app
            sandbox="allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-forms allow-downloads"
            referrerPolicy="no-referrer"
            allow="fullscreen"
            style={{ border: 0, width: "100%", minHeight: "calc(100vh - 180px)" }}
          />
        </Paper>
      )}
    </Box>
  );
}
