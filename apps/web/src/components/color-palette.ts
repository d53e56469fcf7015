/** The colour picker's 50 predefined colours (spec 2-administration §9): ten hues in five shades. */
export const COLOR_PALETTE: readonly string[] = [
  // reds
  "#B71C1C", "#D32F2F", "#F44336", "#E57373", "#FFCDD2",
  // pinks
  "#880E4F", "#C2185B", "#E91E63", "#F06292", "#F8BBD0",
  // purples
  "#4A148C", "#7B1FA2", "#9C27B0", "#BA68C8", "#E1BEE7",
  // indigos
  "#1A237E", "#303F9F", "#3F51B5", "#7986CB", "#C5CAE9",
  // blues
  "#0D47A1", "#1976D2", "#2196F3", "#64B5F6", "#BBDEFB",
  // teals
  "#004D40", "#00796B", "#009688", "#4DB6AC", "#B2DFDB",
  // greens
  "#1B5E20", "#388E3C", "#4CAF50", "#81C784", "#C8E6C9",
  // yellows
  "#F57F17", "#FBC02D", "#FFEB3B", "#FFF176", "#FFF9C4",
  // oranges
  "#E65100", "#F57C00", "#FF9800", "#FFB74D", "#FFE0B2",
  // browns and greys
  "#3E2723", "#5D4037", "#795548", "#9E9E9E", "#263238",
];

/**
 * The default colour of a new queue (or tag): the first palette colour no existing one uses (colours are
 * unique per company, ERR_QUEUE_COLOR_ALREADY_EXISTS), the palette's first when all 50 are taken.
 */
export function firstFreeColor(used: readonly string[]): string {
  const taken = new Set(used.map((c) => c.toUpperCase()));
  return COLOR_PALETTE.find((c) => !taken.has(c.toUpperCase())) ?? COLOR_PALETTE[0]!;
}
