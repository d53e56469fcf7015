import { useEffect, useState } from "react";
import { Controller, type Control, type FieldPath, type FieldValues } from "react-hook-form";
import { InputAdornment, TextField, type TextFieldProps } from "@mui/material";
import { useTranslation } from "react-i18next";
import { formatMoneyInput, parseMoney } from "@atende/shared";
import { formMessage } from "./form-message";

type Props<T extends FieldValues> = Omit<TextFieldProps, "name" | "value" | "onChange" | "error" | "type"> & {
  control: Control<T>;
  name: FieldPath<T>;
};

/**
 * The one money input (BRL): typed the Brazilian way (`99,90`, `1.234,56`; `99.90` also reads 99.9),
 * stored as a number, shown back as `99,90` when the field is left. A text input with a decimal
 * keyboard: `type=number` drops the comma under pt-BR and turned `99,90` into 9990. An empty field
 * stores null; a text that is not an amount stores the text itself (the schema refuses it) and says why.
 */
export function MoneyField<T extends FieldValues>({ control, name, helperText, slotProps, ...props }: Props<T>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <MoneyText
          {...props}
          name={field.name}
          value={field.value as unknown}
          onValue={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
          slotProps={slotProps}
          schemaError={formMessage(fieldState.error?.message)}
          helperText={helperText}
        />
      )}
    />
  );
}

type TextProps = Omit<TextFieldProps, "value" | "onChange" | "error" | "type"> & {
  value: unknown;
  onValue: (value: number | string | null) => void;
  schemaError?: string;
};

const shown = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? formatMoneyInput(value) : typeof value === "string" ? value : "");

function MoneyText({ value, onValue, onBlur, schemaError, helperText, slotProps, ...props }: TextProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(() => shown(value));
  // A value set from outside (a form reset, a row picked for editing) replaces the typed text.
  useEffect(() => {
    setText((current) => {
      const typed = parseMoney(current);
      return typed === value || (typed === null && (value === null || value === undefined)) ? current : shown(value);
    });
  }, [value]);
  const parsed = parseMoney(text);
  const invalid = parsed !== null && Number.isNaN(parsed);
  return (
    <TextField
      {...props}
      value={text}
      onChange={(e) => {
        const next = e.target.value;
        setText(next);
        const amount = parseMoney(next);
        onValue(amount !== null && Number.isNaN(amount) ? next : amount);
      }}
      onBlur={(e) => {
        if (parsed !== null && !invalid) setText(formatMoneyInput(parsed));
        onBlur?.(e);
      }}
      error={invalid || !!schemaError}
      helperText={invalid ? t("common.invalidAmount") : (schemaError ?? helperText)}
      slotProps={{
        ...slotProps,
        htmlInput: { inputMode: "decimal", autoComplete: "off", ...(slotProps?.htmlInput as object | undefined) },
        input: { startAdornment: <InputAdornment position="start">R$</InputAdornment>, ...(slotProps?.input as object | undefined) },
      }}
    />
  );
}
