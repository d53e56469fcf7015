import { useState } from "react";
import { Box, IconButton, InputAdornment, TextField, type TextFieldProps } from "@mui/material";
import PaletteIcon from "@mui/icons-material/Palette";
import { ColorPickerDialog } from "./color-picker-dialog";

type Props = Omit<TextFieldProps, "onChange" | "value"> & {
  value: string;
  onChange(value: string): void;
  pickerTitle: string;
};

/** A text field for a colour code with a swatch and a button opening the palette. */
export function ColorField({ value, onChange, pickerTitle, ...props }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <TextField
        {...props}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        slotProps={{
          ...props.slotProps,
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <Box sx={{ width: 22, height: 22, borderRadius: "50%", bgcolor: value || "transparent", border: 1, borderColor: "divider" }} />
              </InputAdornment>
            ),
            endAdornment: (
              <InputAdornment position="end">
                <IconButton aria-label={pickerTitle} onClick={() => setOpen(true)} edge="end">
                  <PaletteIcon />
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
      <ColorPickerDialog open={open} title={pickerTitle} value={value} onClose={() => setOpen(false)} onChange={onChange} />
    </>
  );
}
