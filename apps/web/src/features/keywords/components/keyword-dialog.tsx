import { useEffect, useState } from "react";
import { Box, Dialog, DialogContent, DialogTitle, TextField, Tooltip } from "@mui/material";
import InfoOutlined from "@mui/icons-material/InfoOutlined";
import { useTranslation } from "react-i18next";
import { keywordCreateInput, keywordUpdateInput, type Keyword } from "@atende/shared";
import { DialogFormActions } from "../../../components/dialog-form-actions";
import { formMessage } from "../../../components/form-message";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { addKeywords, updateKeyword } from "../api/keywords";

interface Props {
  open: boolean;
  record: Keyword | null;
  onClose(): void;
  onSaved(): void;
}

/** Adding takes several words, one per line (with help and an info tooltip); editing, one line (spec 3 §2). */
export function KeywordDialog({ open, record, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!open) return;
    setText(record?.word ?? "");
    setError(undefined);
  }, [open, record]);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const parsed = record ? keywordUpdateInput.safeParse({ word: text }) : keywordCreateInput.safeParse({ word: text });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setSaving(true);
    try {
      if (record) {
        await updateKeyword(record.id, text);
        toast.success(t("keywords.edited"));
      } else {
        const added = await addKeywords(text);
        toast.success(t("keywords.added", { count: added.length }));
      }
      onSaved();
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <DialogTitle>{record ? t("keywords.dialog.editTitle") : t("keywords.dialog.addTitle")}</DialogTitle>
        <DialogContent dividers>
          <Box sx={{ display: "flex", gap: 1, alignItems: "flex-start" }}>
            <TextField
              label={record ? t("keywords.dialog.word") : t("keywords.dialog.words")}
              value={text}
              onChange={(e) => setText(e.target.value)}
              required
              autoFocus
              fullWidth
              multiline={!record}
              minRows={record ? undefined : 5}
              error={!!error}
              helperText={formMessage(error) ?? (record ? undefined : t("keywords.dialog.help"))}
            />
            {!record && (
              <Tooltip title={t("keywords.dialog.info")}>
                <InfoOutlined color="action" sx={{ mt: 2 }} aria-label={t("keywords.dialog.info")} />
              </Tooltip>
            )}
          </Box>
        </DialogContent>
        <DialogFormActions onCancel={onClose} submitting={saving} />
      </form>
    </Dialog>
  );
}
