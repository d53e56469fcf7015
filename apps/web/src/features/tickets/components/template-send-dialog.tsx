import { useMemo, useState } from "react";
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField, Typography } from "@mui/material";
import { useMutation, useQuery } from "@tanstack/react-query";
import { fillTemplate } from "@atende/shared";
import { useTranslation } from "react-i18next";
import { toastError } from "../../../lib/toast-error";
import { fetchTicketTemplates, sendTicketTemplate, ticketTemplatesKey } from "../api/templates";
import { templateFields, templateInput, type TemplateField } from "../lib/template-fields";
import type { Message } from "../types";

interface Props {
  ticketId: number;
  open: boolean;
  onClose(): void;
  onSent(message: Message): void;
}

/**
 * Sends an approved WhatsApp template on an official ticket: the agent fills the
 * header media or text, the body variables (named or positional) and the button parameters, and sees
 * the text the customer will read; sending stays off while a required value is empty.
 */
export function TemplateSendDialog({ ticketId, open, onClose, onSent }: Props) {
  const { t } = useTranslation();
  const templates = useQuery({ queryKey: ticketTemplatesKey(ticketId), queryFn: () => fetchTicketTemplates(ticketId), enabled: open });
  const [templateId, setTemplateId] = useState<number | "">("");
  const [values, setValues] = useState<Record<string, string>>({});
  const template = templates.data?.find((x) => x.id === templateId);
  const fields = useMemo(() => (template ? templateFields(template) : []), [template]);
  const input = template ? templateInput(template, fields, values) : null;
  const filled = template && input ? fillTemplate(template.components, template.parameterFormat, input) : null;
  const send = useMutation({
    mutationFn: () => sendTicketTemplate(ticketId, input!),
    onSuccess: (message) => {
      onSent(message);
      setValues({});
      setTemplateId("");
      onClose();
    },
    onError: toastError,
  });

  const label = (f: TemplateField): string => {
    if (f.kind === "named") return `{{${f.name}}}`;
    if (f.kind === "positional") return `{{${f.position}}}`;
    if (f.kind === "button") return t(`tickets.template.button.${f.button}`, { label: f.label });
    return t(`tickets.template.${f.kind}`);
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="template-send-title">
      <DialogTitle id="template-send-title">{t("tickets.template.title")}</DialogTitle>
      <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2, pt: "8px !important" }}>
        <TextField
          select
          label={t("tickets.template.choose")}
          value={templateId}
          onChange={(e) => {
            setTemplateId(Number(e.target.value));
            setValues({});
          }}
          slotProps={{ htmlInput: { "data-testid": "template-select" } }}
          helperText={templates.isSuccess && templates.data.length === 0 ? t("tickets.template.none") : undefined}
        >
          {(templates.data ?? []).map((x) => (
            <MenuItem key={x.id} value={x.id}>
              {x.name} ({x.language})
            </MenuItem>
          ))}
        </TextField>
        {fields.map((f) => (
          <TextField
            key={f.key}
            label={label(f)}
            value={values[f.key] ?? ""}
            required={!(f.kind === "button" && f.button === "QUICK_REPLY") && f.kind !== "headerFilename"}
            onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value }))}
            slotProps={{ htmlInput: { "data-testid": `template-field-${f.key}` } }}
          />
        ))}
        {filled && (
          <Box>
            <Typography variant="caption" color="text.secondary">
              {t("tickets.template.preview")}
            </Typography>
            <Box data-testid="template-preview" sx={{ whiteSpace: "pre-wrap", bgcolor: "action.hover", borderRadius: 1, p: 1.5, fontSize: 14 }}>
              {filled.text}
            </Box>
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("tickets.template.cancel")}</Button>
        <Button variant="contained" disabled={!filled || filled.missing.length > 0 || filled.invalid.length > 0 || send.isPending} onClick={() => send.mutate()} data-testid="template-send">
          {t("tickets.template.send")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
