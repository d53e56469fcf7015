import { lazy, Suspense, useEffect, useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { AppBar, Box, Button, CircularProgress, Dialog, DialogActions, IconButton, MenuItem, TextField, Toolbar, Typography } from "@mui/material";
import CloseIcon from "@mui/icons-material/Close";
import { useTranslation } from "react-i18next";
import { emailTemplateInput, type EmailTemplate } from "@atende/shared";
import { useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { FormTextField } from "../../../components/form-text-field";
import { ConfirmationDialog } from "../../../components/confirmation-dialog";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { createEmailTemplate, emailTemplateKeys, updateEmailTemplate } from "../api/message-templates";
import { useEmailTemplate } from "../api/use-email-template";
import { errorText } from "../../../lib/toast-error";
import { EmailPreviewFrame } from "./email-preview-frame";

/** CodeMirror and its HTML language are fetched only when this dialog first renders the editor. */
const HtmlCodeEditor = lazy(() => import("./html-code-editor"));

type FormIn = z.input<typeof emailTemplateInput>;
type FormOut = z.output<typeof emailTemplateInput>;

interface Props {
  open: boolean;
  /** The template to edit (its HTML is read on opening); null to add one. */
  templateId: number | null;
  onClose(): void;
  onSaved(template: EmailTemplate): void;
}

/**
 * Add or edit an e-mail template (spec 3 §2, §4, §5), full screen: type fixed to e-mail, title and
 * subject (2-128), the HTML editor with a live preview beside it (stacked on a phone). Saving creates
 * when there is no id yet and keeps the new id, so later saves update it; empty content is refused
 * with 'content required' and nothing is saved; closing with unsaved changes asks first.
 */
export function EmailTemplateDialog({ open, templateId, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const loaded = useEmailTemplate(open ? templateId : null);
  /** The opening the form was filled for: filled once, so a later read never overwrites the user's edits. */
  const [filledFor, setFilledFor] = useState<string | null>(null);
  const [id, setId] = useState<number | null>(null);
  const [confirmClose, setConfirmClose] = useState(false);
  const { control, handleSubmit, reset, formState } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(emailTemplateInput),
    defaultValues: { title: "", subject: "", content: "" },
  });
  const content = String(useWatch({ control, name: "content" }) ?? "");

  useEffect(() => {
    if (!open) {
      setFilledFor(null);
      return;
    }
    const key = templateId === null ? "new" : String(templateId);
    if (filledFor === key) return;
    if (templateId === null) {
      setFilledFor(key);
      setId(null);
      reset({ title: "", subject: "", content: "" });
    } else if (loaded.data) {
      setFilledFor(key);
      setId(loaded.data.id);
      reset({ title: loaded.data.title, subject: loaded.data.subject, content: loaded.data.content });
    }
  }, [open, templateId, loaded.data, filledFor, reset]);
  const loading = templateId !== null && filledFor === null && !loaded.isError;

  const submit = handleSubmit(async (values) => {
    try {
      const saved = id === null ? await createEmailTemplate(values) : await updateEmailTemplate(id, values);
      setId(saved.id);
      reset({ title: saved.title, subject: saved.subject, content: saved.content });
      queryClient.setQueryData<EmailTemplate>(emailTemplateKeys.one(saved.id), saved);
      toast.success(t("messageTemplates.saved"));
      onSaved(saved);
    } catch (err) {
      toastError(err);
    }
  });

  // read while rendering: react-hook-form only tracks the formState fields a render reads
  const dirty = formState.isDirty;
  const requestClose = () => (dirty ? setConfirmClose(true) : onClose());

  return (
    <Dialog open={open} onClose={requestClose} fullScreen aria-labelledby="email-template-dialog-title">
      <form onSubmit={submit} noValidate style={{ display: "flex", flexDirection: "column", height: "100%" }}>
        <AppBar position="static" color="default" elevation={1}>
          <Toolbar sx={{ gap: 1 }}>
            <IconButton edge="start" onClick={requestClose} aria-label={t("common.close")}>
              <CloseIcon />
            </IconButton>
            <Typography id="email-template-dialog-title" variant="h6" sx={{ flex: 1 }} noWrap>
              {id === null ? t("messageTemplates.email.addTitle") : t("messageTemplates.email.editTitle")}
            </Typography>
          </Toolbar>
        </AppBar>
        {loaded.isError && (
          <Typography role="alert" color="error" sx={{ px: 2, pt: 2 }}>
            {errorText(loaded.error)}
          </Typography>
        )}
        {loading && (
          <Box sx={{ display: "flex", justifyContent: "center", py: 4 }}>
            <CircularProgress size={28} />
          </Box>
        )}
        <Box sx={{ p: 2, display: loading ? "none" : "grid", gap: 2, gridTemplateColumns: { xs: "1fr", md: "160px 1fr 1fr" } }}>
          <TextField select label={t("campaignTemplates.view.type")} value="email" disabled size="small">
            <MenuItem value="email">E-mail</MenuItem>
          </TextField>
          <FormTextField control={control} name="title" label={t("messageTemplates.title")} required size="small" />
          <FormTextField control={control} name="subject" label={t("messageTemplates.email.subject")} required size="small" />
        </Box>
        {formState.errors.content && (
          <Typography role="alert" color="error" variant="body2" sx={{ px: 2, pb: 1 }} data-testid="content-required">
            {t("messageTemplates.email.contentRequired")}
          </Typography>
        )}
        <Box sx={{ flex: 1, minHeight: 0, overflow: "auto", px: 2, pb: 2, display: loading ? "none" : "grid", gap: 2, gridTemplateColumns: { xs: "1fr", md: "1fr 1fr" }, gridAutoRows: { xs: "minmax(300px, 1fr)", md: "1fr" } }}>
          <Box sx={{ border: 1, borderColor: formState.errors.content ? "error.main" : "divider", borderRadius: 1, overflow: "hidden", minHeight: 0 }}>
            <Suspense fallback={<Box sx={{ p: 2 }}><CircularProgress size={24} /></Box>}>
              <Controller
                control={control}
                name="content"
                render={({ field }) => <HtmlCodeEditor value={String(field.value ?? "")} onChange={field.onChange} label={t("messageTemplates.email.content")} />}
              />
            </Suspense>
          </Box>
          <Box sx={{ border: 1, borderColor: "divider", borderRadius: 1, overflow: "hidden", minHeight: 0 }}>
            <EmailPreviewFrame html={content} title={t("messageTemplates.email.preview")} />
          </Box>
        </Box>
        {/* at the bottom, clear of the toasts (top right) that a save shows */}
        <DialogActions sx={{ borderTop: 1, borderColor: "divider" }}>
          <Button onClick={requestClose}>{t("common.close")}</Button>
          <Button type="submit" variant="contained" disabled={formState.isSubmitting || loading || loaded.isError} startIcon={formState.isSubmitting ? <CircularProgress size={16} /> : undefined}>
            {t("common.save")}
          </Button>
        </DialogActions>
      </form>
      <ConfirmationDialog
        open={confirmClose}
        title={t("messageTemplates.email.unsavedTitle")}
        confirmLabel={t("messageTemplates.email.discard")}
        onConfirm={onClose}
        onClose={() => setConfirmClose(false)}
      >
        {t("messageTemplates.email.unsavedText")}
      </ConfirmationDialog>
    </Dialog>
  );
}
