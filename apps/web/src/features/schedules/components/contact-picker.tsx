import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Autocomplete, Avatar, Box, CircularProgress, TextField, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { LIMITS, type ContactRef } from "@atende/shared";
import { useDebouncedValue } from "../../../components/use-debounced-value";
import { scheduleKeys, searchContacts } from "../api/schedules";

interface Props {
  value: ContactRef | null;
  onChange(contact: ContactRef | null): void;
  error?: string;
  disabled?: boolean;
}

/** Contact autocomplete: searches the server from 3 typed characters (debounced 500 ms). */
export function ContactPicker({ value, onChange, error, disabled }: Props) {
  const { t } = useTranslation();
  const [input, setInput] = useState("");
  const search = useDebouncedValue(input.trim());
  const enabled = search.length >= LIMITS.contactSearchMinChars && search !== value?.name;
  const results = useQuery({ queryKey: scheduleKeys.contactSearch(search), queryFn: ({ signal }) => searchContacts(search, signal), enabled });
  const options: ContactRef[] = enabled ? (results.data ?? []) : value ? [value] : [];
  return (
    <Autocomplete
      value={value}
      onChange={(_, v) => onChange(v)}
      inputValue={input}
      onInputChange={(_, v) => setInput(v)}
      options={options}
      filterOptions={(x) => x}
      getOptionLabel={(c) => c.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={results.isFetching}
      disabled={disabled}
      noOptionsText={input.trim().length < LIMITS.contactSearchMinChars ? t("schedules.dialog.contactHint") : t("schedules.dialog.noContacts")}
      renderOption={({ key, ...props }, c) => (
        <Box component="li" key={key} {...props} sx={{ display: "flex", gap: 1.5, alignItems: "center" }}>
          <Avatar src={c.profilePicUrl || undefined} sx={{ width: 28, height: 28 }}>
            {c.name.charAt(0).toUpperCase()}
          </Avatar>
          <Box>
            <Typography variant="body2">{c.name}</Typography>
            <Typography variant="caption" color="text.secondary">
              {c.number}
            </Typography>
          </Box>
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label={t("schedules.dialog.contact")}
          required
          error={!!error}
          helperText={error ?? t("schedules.dialog.contactHint")}
          slotProps={{
            input: {
              ...params.InputProps,
              endAdornment: (
                <>
                  {results.isFetching && <CircularProgress size={18} />}
                  {params.InputProps.endAdornment}
                </>
              ),
            },
          }}
        />
      )}
    />
  );
}
