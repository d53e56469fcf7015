/**
 * Text on a user-chosen colour (queue, tag, lane): black or white, whichever has the higher WCAG 2
 * contrast ratio against it. A light queue colour with white text was unreadable; every coloured chip
 * and header picks its text here. Accepts #rgb, #rrggbb and #rrggbbaa (the alpha is ignored); any
 * other text (empty, a theme name) gets no colour of its own (undefined: the theme's default applies).
 */
export const DARK_TEXT = "#000000";
export const LIGHT_TEXT = "#ffffff";

function rgbOf(color: string): [number, number, number] | null {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(color.trim())?.[1];
  if (!hex) return null;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex.slice(0, 6);
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

/** WCAG 2 relative luminance of an sRGB colour (0 black … 1 white). */
export function relativeLuminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG 2 contrast ratio between two luminances (1 … 21). */
export const contrastRatio = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/** Black or white text for this background, by contrast ratio; undefined for a text that is not a colour. */
export function textOn(background: string | null | undefined): string | undefined {
  const rgb = background ? rgbOf(background) : null;
  if (!rgb) return undefined;
  const l = relativeLuminance(rgb);
  return contrastRatio(l, 0) >= contrastRatio(l, 1) ? DARK_TEXT : LIGHT_TEXT;
}

/** The sx of a chip (or header) painted with a user-chosen colour: the colour and its readable text. */
export function colorChipSx(background: string | null | undefined): { bgcolor?: string; color?: string } {
  if (!background) return {};
  return { bgcolor: background, color: textOn(background) };
}
