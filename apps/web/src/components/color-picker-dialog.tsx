import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Tooltip } from "@mui/material";
import CheckIcon from "@mui/icons-material/Check";
import { useTranslation } from "react-i18next";
import { COLOR_PALETTE } from "./color-palette";
import { colorChipSx } from "../lib/contrast";

interface Props {
  open: boolean;
  title: string;
  value?: string;
  onClose(): void;
  onChange(color: string): void;
}

/** A dialog offering the 50-colour palette; picking a swatch returns it and closes. */
export function ColorPickerDialog({ open, title, value, onClose, onChange }: Props) {
  const { t } = useTranslation();
  const current = value?.toUpperCase();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <Box role="listbox" aria-label={title} sx={{ display: "grid", gridTemplateColumns: "repeat(10, 1fr)", gap: 1 }}>
          {COLOR_PALETTE.map((color) => (
            <Tooltip key={color} title={color}>
              <Box
                role="option"
                aria-selected={current === color}
                aria-label={color}
                data-color={color}
                tabIndex={0}
                onClick={() => {
                  onChange(color);
                  onClose();
                }}
                onKeyDown={(e) => {
                  if (e.key === "Enter" || e.key === " ") {
                    e.preventDefault();
                    onChange(color);
                    onClose();
                  }
                }}
                sx={{
                  aspectRatio: "1",
                  borderRadius: 1,
                  ...colorChipSx(color),
                  cursor: "pointer",
                  display: "grid",
                  placeItems: "center",
                  outline: current === color ? "2px solid" : "none",
                  outlineColor: "text.primary",
                  outlineOffset: 2,
                  transition: "transform 0.1s",
                  "&:hover, &:focus-visible": { transform: "scale(1.15)" },
                }}
              >
                {current === color && <CheckIcon fontSize="small" sx={{ mixBlendMode: "difference" }} />}
              </Box>
            </Tooltip>
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common.cancel")}</Button>
      </DialogActions>
    </Dialog>
  );
}
