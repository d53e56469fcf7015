import { Controller, type Control, type FieldPath, type FieldValues } from "react-hook-form";
import { TextField, type TextFieldProps } from "@mui/material";
import { formMessage } from "./form-message";

type Props<T extends FieldValues> = Omit<TextFieldProps, "name" | "value" | "onChange" | "error"> & {
  control: Control<T>;
  name: FieldPath<T>;
  /** Turns the typed text into the stored value (e.g. numbers); identity by default. */
  parse?: (text: string) => unknown;
};

/**
 * A react-hook-form field rendered as a controlled MUI TextField, so values set by `reset()` show with a
 * raised label; its error message is translated like every form message.
 */
export function FormTextField<T extends FieldValues>({ control, name, parse, helperText, inputRef, ...props }: Props<T>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          {...props}
          name={field.name}
          value={field.value ?? ""}
          onChange={(e) => field.onChange(parse ? parse(e.target.value) : e.target.value)}
          onBlur={field.onBlur}
          inputRef={(el: HTMLInputElement | null) => {
            field.ref(el);
            if (typeof inputRef === "function") inputRef(el);
            else if (inputRef && "current" in inputRef) (inputRef as { current: unknown }).current = el;
          }}
          error={!!fieldState.error}
          helperText={formMessage(fieldState.error?.message) ?? helperText}
        />
      )}
    />
  );
}
