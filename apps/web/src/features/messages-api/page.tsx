import { Box, Paper, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { PageHeading } from "../../components/page-heading";
import { ApiDocs } from "./components/api-docs";
import { MediaTestForm } from "./components/media-test-form";
import { TextTestForm } from "./components/text-test-form";

/**
 * Messages API (2-administration §2, §7; super administrators whose plan has the external API):
 * documentation of POST /api/messages/send with this server's address, and forms that really call it.
 */
export default function MessagesApiPage() {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "grid", gap: 2, maxWidth: 1400 }}>
      <PageHeading title={t("messagesApi.title")} />
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "minmax(0, 1fr)", lg: "minmax(0, 3fr) minmax(0, 2fr)" }, alignItems: "start" }}>
        <ApiDocs />
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 2, minWidth: 0 }} data-testid="api-tests">
          <Box>
            <Typography variant="h6" component="h2" sx={{ fontSize: "1.05rem", fontWeight: 600 }}>
              {t("messagesApi.test.title")}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t("messagesApi.test.subtitle")}
            </Typography>
          </Box>
          <TextTestForm />
          <MediaTestForm />
        </Paper>
      </Box>
    </Box>
  );
}
