import { useEffect, useMemo, useRef, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, Chip, Dialog, DialogContent, DialogTitle, FormControlLabel, MenuItem, Switch } from "@mui/material";
import ImageOutlined from "@mui/icons-material/ImageOutlined";
import { useTranslation } from "react-i18next";
import { ANNOUNCEMENT_IMAGE_EXTENSIONS, ANNOUNCEMENT_PRIORITIES, announcementInput, LIMITS, type Announcement } from "@atende/shared";
import type { z } from "zod";
import { DialogFormActions } from "../../../components/dialog-form-actions";
import { FormTextField } from "../../../components/form-text-field";
import { formMessage } from "../../../components/form-message";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { createAnnouncement, removeAnnouncementImage, updateAnnouncement, uploadAnnouncementImage } from "../api/announcements";
import { AnnouncementImage } from "./announcement-image";

type FormIn = z.input<typeof announcementInput>;
type FormOut = z.output<typeof announcementInput>;

interface Props {
  open: boolean;
  record: Announcement | null;
  onClose(): void;
  onSaved(record: Announcement): void;
}

const EMPTY: FormIn = { title: "", text: "", priority: 3, status: true };
const IMAGE_MESSAGE = "A imagem deve ser PNG, JPG ou JPEG.";

/** Add or edit an announcement (spec 3 §2-§3): title and text required, priority 1-3 (default 3), status, a PNG/JPEG image. */
export function AnnouncementDialog({ open, record, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [current, setCurrent] = useState<Announcement | null>(null);
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  const { control, handleSubmit, reset, formState } = useForm<FormIn, unknown, FormOut>({ resolver: zodResolver(announcementInput), defaultValues: EMPTY });

  useEffect(() => {
    if (!open) return;
    setFile(null);
    setCurrent(record);
    reset(record ? { title: record.title, text: record.text, priority: record.priority, status: record.status } : EMPTY);
  }, [open, record, reset]);

  function pick(f: File | undefined) {
    if (!f) return;
    const ext = f.name.toLowerCase().slice(f.name.lastIndexOf("."));
    if (!(ANNOUNCEMENT_IMAGE_EXTENSIONS as readonly string[]).includes(ext)) toast.error(formMessage(IMAGE_MESSAGE) ?? IMAGE_MESSAGE);
    else if (f.size > LIMITS.attachmentMaxBytes) toast.error(t("backendErrors.ERR_PAYLOAD_TOO_LARGE"));
    else setFile(f);
  }

  async function removeImage() {
    if (file) return setFile(null);
    if (!current) return;
    try {
      const saved = await removeAnnouncementImage(current.id);
      setCurrent(saved);
      onSaved(saved);
    } catch (err) {
      toastError(err);
    }
  }

  const submit = handleSubmit(async (values) => {
    try {
      let saved = current ? await updateAnnouncement(current.id, values) : await createAnnouncement(values);
      // a new announcement is kept as soon as it exists: a refused image then edits it instead of adding another
      setCurrent(saved);
      if (file) saved = await uploadAnnouncementImage(saved.id, file);
      toast.success(t("announcements.saved"));
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    }
  });

  const imageName = file?.name ?? current?.mediaName;
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle>{record ? t("announcements.dialog.editTitle") : t("announcements.dialog.addTitle")}</DialogTitle>
        <DialogContent dividers sx={{ display: "grid", gap: 2 }}>
          <FormTextField control={control} name="title" label={t("announcements.dialog.title")} required autoFocus />
          <FormTextField control={control} name="text" label={t("announcements.dialog.text")} required multiline minRows={5} />
          <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } }}>
            <FormTextField control={control} name="priority" label={t("announcements.dialog.priority")} select parse={Number}>
              {ANNOUNCEMENT_PRIORITIES.map((p) => (
                <MenuItem key={p} value={p}>
                  {t(`announcements.priority.${p}`)}
                </MenuItem>
              ))}
            </FormTextField>
            <Controller
              control={control}
              name="status"
              render={({ field }) => (
                <FormControlLabel
                  control={<Switch checked={field.value !== false} onChange={(e) => field.onChange(e.target.checked)} name="status" />}
                  label={field.value === false ? t("announcements.status.inactive") : t("announcements.status.active")}
                />
              )}
            />
          </Box>
          <Box sx={{ display: "flex", gap: 1.5, alignItems: "center", flexWrap: "wrap" }}>
            <Button variant="outlined" startIcon={<ImageOutlined />} onClick={() => fileInput.current?.click()}>
              {t("announcements.dialog.image")}
            </Button>
            <input
              ref={fileInput}
              type="file"
              hidden
              accept=".png,.jpg,.jpeg,image/png,image/jpeg"
              data-testid="announcement-file"
              onChange={(e) => {
                pick(e.target.files?.[0]);
                e.target.value = "";
              }}
            />
            {imageName && <Chip label={imageName} onDelete={() => void removeImage()} title={t("announcements.dialog.removeImage")} />}
          </Box>
          {preview ? (
            <Box component="img" src={preview} alt={file?.name} sx={{ maxWidth: "100%", maxHeight: 200, borderRadius: 1, justifySelf: "center" }} />
          ) : (
            current?.mediaPath && <AnnouncementImage record={current} maxHeight={200} />
          )}
        </DialogContent>
        <DialogFormActions onCancel={onClose} submitting={formState.isSubmitting} />
      </form>
    </Dialog>
  );
}
