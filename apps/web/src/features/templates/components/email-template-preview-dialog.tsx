import { useState } from "react";
import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, ToggleButton, ToggleButtonGroup, Typography } from "@mui/material";
import ComputerIcon from "@mui/icons-material/Computer";
import SmartphoneIcon from "@mui/icons-material/Smartphone";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/toast-error";
import { useEmailTemplate } from "../api/use-email-template";
import { EmailPreviewFrame } from "./email-preview-frame";

/** A phone's viewport width for the mobile preview. */
const MOBILE_WIDTH = 375;

/** Read-only preview of an e-mail template (spec 3 §2) with a desktop/mobile width toggle. */
export function EmailTemplatePreviewDialog({ templateId, onClose }: { templateId: number | null; onClose(): void }) {
  const { t } = useTranslation();
  const query = useEmailTemplate(templateId);
  const template = templateId === null ? undefined : query.data;
  const [device, setDevice] = useState<"desktop" | "mobile">("desktop");
  return (
    <Dialog open={templateId !== null} onClose={onClose} maxWidth="lg" fullWidth>
      <DialogTitle sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="h6" noWrap>
            {template?.title}
          </Typography>
          <Typography variant="body2" color="text.secondary" noWrap data-testid="email-preview-subject">
            {t("messageTemplates.email.subject")}: {template?.subject}
          </Typography>
        </Box>
        <ToggleButtonGroup size="small" exclusive value={device} onChange={(_e, v: "desktop" | "mobile" | null) => v && setDevice(v)} aria-label={t("messageTemplates.email.device")}>
          <ToggleButton value="desktop" aria-label={t("messageTemplates.email.desktop")}>
            <ComputerIcon fontSize="small" />
          </ToggleButton>
          <ToggleButton value="mobile" aria-label={t("messageTemplates.email.mobile")}>
            <SmartphoneIcon fontSize="small" />
          </ToggleButton>
        </ToggleButtonGroup>
      </DialogTitle>
      <DialogContent dividers sx={{ height: "70vh", p: 1, bgcolor: "action.hover" }}>
        {query.isLoading && (
          <Box sx={{ display: "flex", justifyContent: "center", py: 4 }}>
            <CircularProgress size={28} />
          </Box>
        )}
        {query.isError && <Typography color="error">{errorText(query.error)}</Typography>}
        {template && <EmailPreviewFrame html={template.content} title={t("messageTemplates.email.preview")} width={device === "mobile" ? MOBILE_WIDTH : "100%"} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
