import { useQuery } from "@tanstack/react-query";
import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/toast-error";
import { fetchTemplate, templateKeys } from "../api/templates";

/** Read-only view of a WhatsApp template (spec 3 §2): type fixed to WhatsApp, name, multi-line body. */
export function TemplateViewDialog({ templateId, onClose }: { templateId: number | null; onClose(): void }) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: templateKeys.one(templateId ?? 0),
    queryFn: ({ signal }) => fetchTemplate(templateId!, signal),
    enabled: templateId !== null,
  });
  const template = query.data;
  return (
    <Dialog open={templateId !== null} onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{t("campaignTemplates.view.title")}</DialogTitle>
      <DialogContent dividers>
        {query.isLoading && (
          <Box sx={{ display: "flex", justifyContent: "center", py: 4 }}>
            <CircularProgress size={28} />
          </Box>
        )}
        {query.isError && <Box sx={{ color: "error.main" }}>{errorText(query.error)}</Box>}
        {template && (
          <Box sx={{ display: "grid", gap: 2, pt: 1 }}>
            <TextField select label={t("campaignTemplates.view.type")} value="whatsapp" disabled fullWidth>
              <MenuItem value="whatsapp">WhatsApp</MenuItem>
            </TextField>
            <TextField label={t("campaignTemplates.view.name")} value={template.name} slotProps={{ input: { readOnly: true } }} fullWidth />
            <TextField
              label={t("campaignTemplates.view.body")}
              value={template.body}
              multiline
              minRows={4}
              slotProps={{ input: { readOnly: true }, htmlInput: { "data-testid": "template-view-body" } }}
              fullWidth
            />
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
