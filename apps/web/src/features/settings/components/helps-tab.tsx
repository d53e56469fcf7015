import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Box, Button, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from "@mui/material";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { helpInput, type Help } from "@atende/shared";
import type { z } from "zod";
import { ConfirmationDialog } from "../../../components/confirmation-dialog";
import { FormTextField } from "../../../components/form-text-field";
import { createHelp, deleteHelp, fetchHelps, helpKeys, updateHelp } from "../api/helps";
import { logFailure } from "../../../lib/log-failure";

type FormIn = z.input<typeof helpInput>;
type FormOut = z.output<typeof helpInput>;
const EMPTY: FormIn = { title: "", video: "", description: "" };

/** Help videos (super only): title, video code and description. */
export function HelpsTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const helps = useQuery({ queryKey: helpKeys.all, queryFn: fetchHelps });
  const [editing, setEditing] = useState<Help | null>(null);
  const [confirm, setConfirm] = useState(false);
  const { control, handleSubmit, reset, formState } = useForm<FormIn, unknown, FormOut>({ resolver: zodResolver(helpInput), defaultValues: EMPTY });

  useEffect(() => {
    if (helps.isError) toast.error(t("settings.crud.loadError"), { toastId: "helps-load" });
  }, [helps.isError, t]);

  function edit(h: Help) {
    setEditing(h);
    reset({ title: h.title, video: h.video, description: h.description });
  }
  function clear() {
    setEditing(null);
    reset(EMPTY);
  }
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: helpKeys.all }), queryClient.invalidateQueries({ queryKey: ["helps"] })]);

  const submit = handleSubmit(async (values) => {
    await new Promise((r) => setTimeout(r, 500));
    try {
      if (editing) await updateHelp(editing.id, values);
      else await createHelp(values);
      await refresh();
      toast.success(t("settings.crud.success"));
      clear();
    } catch (err) {
      logFailure("saving a help failed", err, { helpId: editing?.id });
      toast.error(t("settings.helps.saveError"));
    }
  });

  async function remove() {
    if (!editing) return;
    try {
      await deleteHelp(editing.id);
      await refresh();
      toast.success(t("settings.crud.success"));
      clear();
    } catch (err) {
      logFailure("deleting a help failed", err, { helpId: editing.id });
      toast.error(t("settings.crud.deleteError"));
    }
  }

  return (
    <Box sx={{ display: "grid", gap: 2 }}>
      <Paper variant="outlined" component="form" onSubmit={submit} noValidate sx={{ p: 2 }} aria-label={t("settings.tabs.helps")}>
        <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "2fr 1fr" }, gap: 2 }}>
          <FormTextField control={control} size="small" name="title" label={t("settings.helps.title")} required />
          <FormTextField control={control} size="small" name="video" label={t("settings.helps.video")} helperText={t("settings.helps.videoHelp")} />
          <FormTextField control={control} size="small" name="description" label={t("settings.helps.description")} multiline minRows={3} sx={{ gridColumn: "1 / -1" }} />
        </Box>
        <Box sx={{ display: "flex", gap: 1, justifyContent: "flex-end", mt: 2 }}>
          <Button variant="outlined" onClick={clear}>
            {t("settings.crud.clear")}
          </Button>
          {editing && (
            <Button variant="outlined" color="error" onClick={() => setConfirm(true)}>
              {t("settings.crud.delete")}
            </Button>
          )}
          <Button type="submit" variant="contained" disabled={formState.isSubmitting}>
            {t("settings.crud.save")}
          </Button>
        </Box>
      </Paper>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label={t("settings.tabs.helps")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("settings.helps.title")}</TableCell>
              <TableCell>{t("settings.helps.description")}</TableCell>
              <TableCell>{t("settings.helps.video")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(helps.data ?? []).map((h) => (
              <TableRow key={h.id} hover selected={editing?.id === h.id} onClick={() => edit(h)} sx={{ cursor: "pointer" }} data-testid="help-row">
                <TableCell>{h.title}</TableCell>
                <TableCell sx={{ maxWidth: 420 }}>{h.description || "-"}</TableCell>
                <TableCell sx={{ fontFamily: "monospace" }}>{h.video || "-"}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <ConfirmationDialog open={confirm} title={t("settings.crud.deleteTitle")} onClose={() => setConfirm(false)} onConfirm={() => void remove()}>
        {t("settings.crud.deleteConfirm")}
      </ConfirmationDialog>
    </Box>
  );
}
