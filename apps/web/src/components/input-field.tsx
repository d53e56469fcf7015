import { useId, type ChangeEvent, type ReactNode } from "react";
import { FormControl, FormHelperText, InputLabel, OutlinedInput } from "@mui/material";

interface Props {
  label: string;
  name: string;
  value: string;
  onChange(e: ChangeEvent<HTMLInputElement>): void;
  type?: string;
  required?: boolean;
  autoFocus?: boolean;
  autoComplete?: string;
  disabled?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  margin?: "none" | "dense" | "normal";
  inputMode?: "text" | "numeric" | "email";
}

/**
 * An outlined text input that looks like MUI's TextField, without TextField's select machinery
 * (Select, Menu, Popover, Modal): the public pages (login, password reset) load it, and stay light.
 */
export function InputField({ label, name, value, onChange, type = "text", required, autoFocus, autoComplete, disabled, error, helperText, margin = "normal", inputMode }: Props) {
  const id = useId();
  return (
    <FormControl fullWidth margin={margin} variant="outlined" required={required} error={error} disabled={disabled}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        label={required ? `${label} *` : label}
        name={name}
        type={type}
        value={value}
        onChange={onChange}
        autoFocus={autoFocus}
        autoComplete={autoComplete}
        inputProps={{ inputMode }}
        aria-describedby={helperText ? `${id}-help` : undefined}
      />
      {helperText && <FormHelperText id={`${id}-help`}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
