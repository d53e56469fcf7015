import { Paper, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";

/** A page whose own issue has not been built yet: its title and a short note. */
export function ComingSoon({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <Paper sx={{ p: 4 }} data-testid="coming-soon">
      <Typography variant="h5" gutterBottom>
        {t(titleKey)}
      </Typography>
      <Typography color="text.secondary">{t("common.comingSoon")}</Typography>
    </Paper>
  );
}
