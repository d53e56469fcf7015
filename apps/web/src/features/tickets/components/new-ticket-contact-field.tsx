import { useQuery } from "@tanstack/react-query";
import { Autocomplete, Box, TextField, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { useDebouncedValue } from "../../../components/use-debounced-value";
import { searchContacts } from "../api/contacts";
import type { Contact } from "../types";

/** Shortest name that starts the contact search (2-administration §5). */
export const CONTACT_SEARCH_MIN_CHARS = 3;

/** Typed text that is all digits is a phone number; anything else is a contact's name. */
export function isPhoneText(text: string): boolean {
  return /^\d+$/.test(text.trim());
}

interface Props {
  text: string;
  contact: Contact | null;
  error?: string;
  onTextChange(text: string): void;
  onContactChange(contact: Contact | null): void;
}

/** The new-ticket dialog's 'number or name' box: digits are a phone number, other text searches contacts by name. */
export function NewTicketContactField({ text, contact, error, onTextChange, onContactChange }: Props) {
  const { t } = useTranslation();
  const term = useDebouncedValue(text.trim());
  const searching = !isPhoneText(term) && term.length >= CONTACT_SEARCH_MIN_CHARS && contact?.name !== term;
  const results = useQuery({
    queryKey: ["tickets", "new-ticket-contacts", term.toLowerCase()],
    queryFn: ({ signal }) => searchContacts(term.toLowerCase(), signal),
    enabled: searching,
  });
  const short = !isPhoneText(text) && text.trim().length > 0 && text.trim().length < CONTACT_SEARCH_MIN_CHARS;
  return (
    <Autocomplete<Contact, false, false, true>
      freeSolo
      options={searching ? (results.data ?? []) : []}
      filterOptions={(o) => o}
      loading={searching && results.isFetching}
      loadingText={t("tickets.newTicket.searching")}
      noOptionsText={t("tickets.newTicket.noContacts")}
      value={contact}
      inputValue={text}
      onInputChange={(_e, value, reason) => {
        if (reason === "reset") return;
        onTextChange(value);
        if (contact && value !== contact.name) onContactChange(null);
      }}
      onChange={(_e, value) => {
        if (value && typeof value === "object") {
          onContactChange(value);
          onTextChange(value.name);
        }
      }}
      getOptionLabel={(o) => (typeof o === "string" ? o : o.name)}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      renderOption={(props, o) => (
        <Box component="li" {...props} key={o.id}>
          <Box>
            <Typography>{o.name}</Typography>
            <Typography variant="body2" color="text.secondary">
              {o.number}
            </Typography>
          </Box>
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          required
          autoFocus
          label={t("tickets.newTicket.contact")}
          placeholder="5511999998888"
          error={Boolean(error)}
          helperText={error ?? (contact ? contact.number : short ? t("tickets.newTicket.typeMore", { count: CONTACT_SEARCH_MIN_CHARS }) : undefined)}
          inputProps={{ ...params.inputProps, "data-testid": "new-ticket-number" }}
        />
      )}
    />
  );
}
