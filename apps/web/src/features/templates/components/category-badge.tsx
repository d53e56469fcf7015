import { Chip } from "@mui/material";
import { colorChipSx } from "../../../lib/contrast";

/** Fixed colours per Meta category (spec 3 §2): the same in light and dark themes. */
const CATEGORY_COLORS: Record<string, string> = {
  AUTHENTICATION: "#1565c0",
  MARKETING: "#8e24aa",
  UTILITY: "#2e7d32",
};

export function CategoryBadge({ category }: { category: string }) {
  const bg = CATEGORY_COLORS[category.toUpperCase()] ?? "#616161";
  return <Chip size="small" label={category || "—"} data-testid="category-badge" sx={{ ...colorChipSx(bg), fontWeight: 600, fontSize: 11, height: 22 }} />;
}
