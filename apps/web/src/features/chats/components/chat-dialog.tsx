import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Autocomplete, Dialog, DialogContent, DialogTitle, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import { chatInput, type Chat, type UserListItem } from "@atende/shared";
import { DialogFormActions } from "../../../components/dialog-form-actions";
import { formMessage } from "../../../components/form-message";
import { useCurrentUser } from "../../../lib/session";
import { toastError } from "../../../lib/toast-error";
import { chatKeys, createChat, fetchCompanyUsers, updateChat } from "../api/chats";

interface Props {
  open: boolean;
  chat: Chat | null;
  onClose(): void;
  onSaved(chat: Chat): void;
}

/** Create or edit a chat (spec 3 §2, §3): a title and at least one other user of the company. */
export function ChatDialog({ open, chat, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const users = useQuery({ queryKey: chatKeys.users, queryFn: ({ signal }) => fetchCompanyUsers(signal), enabled: open, staleTime: 60_000 });
  const [title, setTitle] = useState("");
  const [members, setMembers] = useState<UserListItem[]>([]);
  const [errors, setErrors] = useState<{ title?: string; users?: string }>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setTitle(chat?.title ?? "");
    setMembers(chat ? chat.users.filter((u) => u.userId !== me.id).map((u) => u.user) : []);
    setErrors({});
  }, [open, chat, me.id]);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const parsed = chatInput.safeParse({ title, users: members.map((m) => m.id) });
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as "title" | "users"] ??= issue.message;
      setErrors(next);
      return;
    }
    setSaving(true);
    try {
      const input = { title: parsed.data.title, users: parsed.data.users };
      onSaved(chat ? await updateChat(chat.id, input) : await createChat(input));
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(false);
    }
  }

  const options = (users.data ?? []).filter((u) => u.id !== me.id);
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <DialogTitle>{chat ? t("chats.dialog.editTitle") : t("chats.dialog.addTitle")}</DialogTitle>
        <DialogContent dividers sx={{ display: "grid", gap: 2 }}>
          <TextField
            label={t("chats.dialog.title")}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            required
            autoFocus
            error={!!errors.title}
            helperText={formMessage(errors.title)}
            slotProps={{ htmlInput: { maxLength: 200 } }}
          />
          <Autocomplete
            multiple
            options={options}
            loading={users.isLoading}
            value={members}
            onChange={(_, v) => setMembers(v)}
            getOptionLabel={(o) => o.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            filterSelectedOptions
            renderInput={(params) => <TextField {...params} label={t("chats.dialog.users")} required error={!!errors.users} helperText={formMessage(errors.users)} />}
          />
        </DialogContent>
        <DialogFormActions onCancel={onClose} submitting={saving} />
      </form>
    </Dialog>
  );
}
