import { useState } from "react";
import { Autocomplete, Box, Chip, TextField } from "@mui/material";
import LocalOfferIcon from "@mui/icons-material/LocalOffer";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { tagsQuery } from "../api/lookups";
import { syncTicketTags } from "../api/tags";
import { ticketKeys } from "../api/tickets";
import { toastError } from "../../../lib/toast-error";
import type { TagRef, Ticket } from "../types";
import { colorChipSx } from "../../../lib/contrast";

/** The ticket's tags; editable only where spec 1-core §4 allows (POST /tags/sync). */
export function TagBar({ ticket, editable }: { ticket: Ticket; editable: boolean }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { data: tags } = useQuery({ ...tagsQuery(), enabled: editable });
  const [saving, setSaving] = useState(false);

  async function change(next: TagRef[]) {
    const previous = ticket.tags;
    qc.setQueryData<Ticket>(ticketKeys.one(ticket.uuid), (old) => (old ? { ...old, tags: next } : old));
    setSaving(true);
    try {
      await syncTicketTags(ticket.id, next);
    } catch (err) {
      qc.setQueryData<Ticket>(ticketKeys.one(ticket.uuid), (old) => (old ? { ...old, tags: previous } : old));
      toastError(err);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1, px: 2, py: 0.5, borderBottom: 1, borderColor: "divider", bgcolor: "background.paper", minHeight: 44 }}>
      <LocalOfferIcon fontSize="small" color="action" />
      <Autocomplete
        multiple
        size="small"
        fullWidth
        disabled={!editable || saving}
        options={tags ?? ticket.tags ?? []}
        value={ticket.tags ?? []}
        onChange={(_, v) => void change(v)}
        getOptionLabel={(o) => o.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        disableClearable
        renderTags={(v, getProps) =>
          v.map((o, i) => <Chip {...getProps({ index: i })} key={o.id} size="small" label={o.name} sx={{ ...colorChipSx(o.color), fontWeight: 600, "& .MuiChip-deleteIcon": { color: "inherit", opacity: 0.75 } }} />)
        }
        renderInput={(p) => (
          <TextField
            {...p}
            variant="standard"
            placeholder={(ticket.tags ?? []).length ? "" : t(editable ? "tickets.tagsBar.placeholder" : "tickets.tagsBar.none")}
            InputProps={{ ...p.InputProps, disableUnderline: true }}
            inputProps={{ ...p.inputProps, "data-testid": "tag-picker", "aria-label": t("tickets.tagsBar.label") }}
          />
        )}
      />
    </Box>
  );
}
