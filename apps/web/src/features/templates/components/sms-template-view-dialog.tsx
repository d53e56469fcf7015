import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { SmsTemplate } from "@atende/shared";
import { SmsSegmentsHint } from "./sms-segments-hint";

/** Read-only view of an SMS template: type, title and content with its variables and segments. */
export function SmsTemplateViewDialog({ template, onClose }: { template: SmsTemplate | null; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={template !== null} onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{t("messageTemplates.sms.viewTitle")}</DialogTitle>
      <DialogContent dividers>
        {template && (
          <Box sx={{ display: "grid", gap: 2, pt: 1 }}>
            <TextField select label={t("campaignTemplates.view.type")} value="sms" disabled fullWidth size="small">
              <MenuItem value="sms">SMS</MenuItem>
            </TextField>
            <TextField label={t("messageTemplates.title")} value={template.title} slotProps={{ input: { readOnly: true } }} fullWidth />
            <TextField
              label={t("messageTemplates.sms.content")}
              value={template.content}
              multiline
              minRows={4}
              slotProps={{ input: { readOnly: true }, htmlInput: { "data-testid": "sms-view-content" } }}
              fullWidth
            />
            <SmsSegmentsHint content={template.content} />
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
