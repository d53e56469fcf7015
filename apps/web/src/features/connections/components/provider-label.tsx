import { Box, Typography } from "@mui/material";
import ScienceOutlinedIcon from "@mui/icons-material/ScienceOutlined";
import VerifiedIcon from "@mui/icons-material/Verified";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import type { WhatsappProvider } from "@atende/shared";
import { useTranslation } from "react-i18next";

const ICONS: Record<WhatsappProvider, { icon: typeof WhatsAppIcon; color: string }> = {
  sandbox: { icon: ScienceOutlinedIcon, color: "text.secondary" },
  baileys: { icon: WhatsAppIcon, color: "#25D366" },
  official: { icon: VerifiedIcon, color: "info.main" },
};

/** The kind of a connection: the test sandbox, WhatsApp by QR code (Baileys) or the official Cloud API. */
export function ProviderLabel({ provider }: { provider: WhatsappProvider }) {
  const { t } = useTranslation();
  const { icon: Icon, color } = ICONS[provider];
  return (
    <Box component="span" sx={{ display: "inline-flex", alignItems: "center", gap: 0.75 }} data-testid="connection-provider-label" data-provider={provider}>
      <Icon sx={{ fontSize: 16, color }} />
      <Typography component="span" variant="body2" noWrap sx={{ fontSize: 13 }}>
        {t(`connections.providers.${provider}`)}
      </Typography>
    </Box>
  );
}
