import { Box } from "@mui/material";
import { DatePicker } from "@mui/x-date-pickers/DatePicker";
import { DateTimePicker } from "@mui/x-date-pickers/DateTimePicker";
import { format, isValid, parse } from "date-fns";
import { DateLocalization } from "./date-localization";
import { TimeZoneHint } from "./time-zone-hint";

/** The form value of a date-and-time field: a wall-clock time without offset, 2026-11-24T09:30. */
const DATE_TIME = "yyyy-MM-dd'T'HH:mm";
/** The form value of a date field: 2026-11-24. */
const DATE = "yyyy-MM-dd";
/** What a field holds while its text is not a whole valid date: the form's schema refuses it. */
export const INVALID_DATE = "invalid";

function toPicker(value: string, pattern: string): Date | null {
  if (!value || value === INVALID_DATE) return null;
  const d = parse(value, pattern, new Date());
  return isValid(d) ? d : null;
}

function fromPicker(d: Date | null, pattern: string): string {
  if (d === null) return "";
  return isValid(d) ? format(d, pattern) : INVALID_DATE;
}

interface Props {
  label: string;
  /** yyyy-MM-ddTHH:mm (date and time) or yyyy-MM-dd (date), "" when empty. */
  value: string;
  onChange(value: string): void;
  name?: string;
  required?: boolean;
  disabled?: boolean;
  error?: boolean;
  helperText?: string;
  size?: "small" | "medium";
}

/**
 * A date and time a person enters, in the interface language's format (dd/MM/yyyy HH:mm in pt) and read
 * as a wall-clock time in the company's time zone, which is shown under it.
 */
export function DateTimeField({ label, value, onChange, name, required, disabled, error, helperText, size }: Props) {
  return (
    <DateLocalization>
      <Box>
        <DateTimePicker
          label={label}
          value={toPicker(value, DATE_TIME)}
          onChange={(d) => onChange(fromPicker(d, DATE_TIME))}
          ampm={false}
          disabled={disabled}
          slotProps={{ textField: { name, required, error, size, fullWidth: true, helperText } }}
        />
        <Box sx={{ mt: 0.5, ml: 1.75 }}>
          <TimeZoneHint />
        </Box>
      </Box>
    </DateLocalization>
  );
}

/** A calendar date (no time, no zone) in the interface language's format. */
export function DateField({ label, value, onChange, name, required, disabled, error, helperText, size }: Props) {
  return (
    <DateLocalization>
      <DatePicker
        label={label}
        value={toPicker(value, DATE)}
        onChange={(d) => onChange(fromPicker(d, DATE))}
        disabled={disabled}
        slotProps={{ textField: { name, required, error, size, fullWidth: true, helperText } }}
      />
    </DateLocalization>
  );
}

