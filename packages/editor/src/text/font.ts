import type { TextData } from '@koma/domain';
import { drawnFont } from './font-catalogue.ts';

/** The font a piece of text is measured and drawn with. */
export interface FontSpec {
  family: string;
  /** Pixels (canvas units) per em. */
  size: number;
  bold: boolean;
  italic: boolean;
}

/**
 * Measures the advance width of a string in a font. Injected so layout stays pure: the browser passes Canvas2D's
 * measureText, tests pass a deterministic fake.
 */
export type MeasureText = (text: string, font: FontSpec) => { width: number };

/** The font of a TEXT layer. */
export const fontSpecOf = (data: Pick<TextData, 'fontName' | 'fontSize' | 'fontBold' | 'fontItalic'>): FontSpec => ({
  family: data.fontName,
  size: data.fontSize,
  bold: data.fontBold,
  italic: data.fontItalic,
});

/** The CSS font shorthand for Canvas2D's `ctx.font` (family quoted, so names with spaces work). */
export function cssFont(font: FontSpec): string {
  const family = font.family.includes('"') ? font.family : `"${font.family}"`;
  return `${font.italic ? 'italic ' : ''}${font.bold ? 'bold ' : ''}${font.size}px ${family}`;
}

/**
 * The font a PSD type layer names: the one the editor actually draws with (font-catalogue.ts), so the PSD never
 * names a font that did not draw the pixels. Unknown names (a user's own font) pass through.
 */
export function psdFontName(data: Pick<TextData, 'fontName' | 'vertical' | 'fontBold'>): string {
  const font = drawnFont(data);
  if (!font) return data.fontName;
  return data.fontBold ? font.postScript[1] : font.postScript[0];
}
