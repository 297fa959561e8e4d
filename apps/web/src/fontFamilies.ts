// Font names and stacks, free of CSS imports so Node tests and the canvas code can use them.
import { catalogueFont, drawnFont } from '@koma/editor';

/** CSS family names of the fonts every page loads up front (the rest load on demand: fonts.ts). */
export const FONT_FAMILIES = {
  lettering: 'Comic Neue',
  display: 'Bangers',
  japanese: 'Noto Sans JP',
} as const;

const JAPANESE_FALLBACK = `'${FONT_FAMILIES.japanese}', 'Hiragino Kaku Gothic ProN', 'Yu Gothic', sans-serif`;

/**
 * Maps a document's font name to a CSS font-family stack. The spec's default 'Komika' is a commercial lettering
 * face we cannot ship; Comic Neue stands in for it. Vertical text in a Latin face is set in the Japanese gothic
 * (font-catalogue.ts); Japanese faces keep their own family.
 */
export function fontStack(fontName: string, vertical = false): string {
  const font = drawnFont({ fontName, vertical });
  if (font)
    return font.family === FONT_FAMILIES.japanese ? JAPANESE_FALLBACK : `'${font.family}', ${JAPANESE_FALLBACK}`;
  if (catalogueFont(fontName)) return JAPANESE_FALLBACK;
  // An unknown name may be a font installed on the user's machine; keep our fonts as the fallback.
  return `'${fontName.replace(/'/g, '')}', '${FONT_FAMILIES.lettering}', ${JAPANESE_FALLBACK}`;
}
