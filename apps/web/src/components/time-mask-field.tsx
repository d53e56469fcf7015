import { TextField, type TextFieldProps } from "@mui/material";

/** Formats typed digits as HH:MM (the colon is inserted after two digits). */
export function maskHHMM(raw: string): string {
  const digits = raw.replace(/\D/g, "").slice(0, 4);
  return digits.length <= 2 ? digits : `${digits.slice(0, 2)}:${digits.slice(2)}`;
}

export const HHMM_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

type Props = Omit<TextFieldProps, "value" | "onChange"> & { value: string; onChange(value: string): void };

/** A text field with the HH:MM mask of the opening-hours forms. */
export function TimeMaskField({ value, onChange, ...props }: Props) {
  return (
    <TextField
      {...props}
      value={value}
      placeholder="HH:MM"
      onChange={(e) => onChange(maskHHMM(e.target.value))}
      slotProps={{ ...props.slotProps, htmlInput: { inputMode: "numeric", maxLength: 5, ...(props.slotProps?.htmlInput as object) } }}
    />
  );
}
