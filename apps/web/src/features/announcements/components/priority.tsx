import { Chip } from "@mui/material";
import { useTranslation } from "react-i18next";

/** The spec's priority colours: 1 red, 2 orange, 3 grey. */
export const PRIORITY_COLOR = { 1: "error", 2: "warning", 3: "default" } as const;
export const priorityColor = (p: number) => PRIORITY_COLOR[p as 1 | 2 | 3] ?? "default";
/** The same colours as theme paths, for borders and dots. */
export const priorityPaletteColor = (p: number) => (p === 1 ? "error.main" : p === 2 ? "warning.main" : "grey.500");

export function PriorityChip({ priority }: { priority: number }) {
  const { t } = useTranslation();
  return <Chip size="small" color={priorityColor(priority)} label={t(`announcements.priority.${priority}`)} data-priority={priority} />;
}
