// Font names and stacks, free of CSS imports so Node tests and the canvas code can use them.

/** CSS family names of the bundled fonts. */
export const FONT_FAMILIES = {
  lettering: 'Comic Neue',
  display: 'Bangers',
  japanese: 'Noto Sans JP',
} as const;

/**
 * Maps a document's font name to a CSS font-family stack. The spec's default 'Komika' is a commercial lettering
 * face we cannot ship; Comic Neue stands in for it (mixed case, bold and italic, like the bubble text options).
 * Vertical (Japanese) text uses the gothic stack, as the spec asks.
 */
export function fontStack(fontName: string, vertical = false): string {
  const japanese = `'${FONT_FAMILIES.japanese}', 'Hiragino Kaku Gothic ProN', 'Yu Gothic', sans-serif`;
  if (vertical) return japanese;
  const normalized = fontName.trim().toLowerCase();
  if (normalized === '' || normalized.startsWith('komika') || normalized === 'comic neue') {
    return `'${FONT_FAMILIES.lettering}', ${japanese}`;
  }
  if (normalized === 'bangers') return `'${FONT_FAMILIES.display}', ${japanese}`;
  if (normalized === 'noto sans jp') return japanese;
  // An unknown name may be a font installed on the user's machine; keep our fonts as the fallback.
  return `'${fontName.replace(/'/g, '')}', '${FONT_FAMILIES.lettering}', ${japanese}`;
}
