import { useEffect, useMemo, useState } from "react";
import { useNavigate } from "react-router-dom";
import { Autocomplete, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField } from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { LIMITS } from "@atende/shared";
import { useTranslation } from "react-i18next";
import { queuesQuery, usersQuery } from "../api/lookups";
import { ticketKeys, updateTicket } from "../api/tickets";
import { useDebounced } from "../hooks/use-debounced";
import { toastError } from "../../../lib/toast-error";
import type { Ticket, UserRef } from "../types";
import { useWorkspace } from "./workspace-context";

/** Transfer (spec 1-core §4/§5): a queue is required; a user is optional (search from 3 characters, 500 ms). */
export function TransferModal({ ticket, open, onClose }: { ticket: Ticket; open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { me } = useWorkspace();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [queueId, setQueueId] = useState<number | "">("");
  const [user, setUser] = useState<UserRef | null>(null);
  const [input, setInput] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const term = useDebounced(input.trim().toLowerCase(), LIMITS.searchDebounceMs);
  const searching = term.length >= LIMITS.transferUserSearchMinChars;
  const { data: queues } = useQuery({ ...queuesQuery(), enabled: open });
  const { data: users, isFetching } = useQuery({ ...usersQuery(), enabled: open && searching });

  useEffect(() => {
    if (!open) return;
    setQueueId("");
    setUser(null);
    setInput("");
    setError(null);
  }, [open]);

  const options = useMemo(() => {
    if (!searching) return [];
    return (users ?? []).filter((u) => u.name.toLowerCase().includes(term) || (u.email ?? "").toLowerCase().includes(term));
  }, [users, term, searching]);

  async function submit() {
    if (queueId === "") {
      setError(t("tickets.transfer.queueRequired"));
      return;
    }
    setBusy(true);
    try {
      const updated = await updateTicket(ticket.id, { action: "transfer", queueId, userId: user?.id ?? null, status: user ? "open" : "pending" });
      const { nextTicket: _next, ...fresh } = updated;
      qc.setQueryData(ticketKeys.one(ticket.uuid), fresh);
      onClose();
      if (!user || user.id !== me.id) navigate("/tickets");
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t("tickets.transfer.title")}</DialogTitle>
      <DialogContent sx={{ display: "grid", gap: 2, pt: "8px !important" }}>
        <Autocomplete
          options={options}
          value={user}
          onChange={(_, v) => setUser(v)}
          inputValue={input}
          onInputChange={(_, v) => setInput(v)}
          filterOptions={(x) => x}
          loading={searching && isFetching}
          getOptionLabel={(o) => o.name}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          noOptionsText={searching ? t("tickets.transfer.noUsers") : t("tickets.transfer.typeToSearch", { count: LIMITS.transferUserSearchMinChars })}
          renderInput={(p) => <TextField {...p} label={t("tickets.transfer.user")} inputProps={{ ...p.inputProps, "data-testid": "transfer-user" }} />}
        />
        <TextField
          select
          required
          label={t("tickets.transfer.queue")}
          value={queueId}
          onChange={(e) => {
            setQueueId(Number(e.target.value));
            setError(null);
          }}
          error={Boolean(error)}
          helperText={error}
          SelectProps={{ inputProps: { "data-testid": "transfer-queue" } }}
        >
          {(queues ?? []).map((q) => (
            <MenuItem key={q.id} value={q.id}>
              <Box sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: q.color, mr: 1, display: "inline-block" }} />
              {q.name}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t("common.cancel")}
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy} data-testid="transfer-submit">
          {t("tickets.transfer.submit")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
