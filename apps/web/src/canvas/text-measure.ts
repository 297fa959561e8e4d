import type { TextData } from '@koma/domain';
import { fitBubble, type FontSpec, type MeasureText } from '@koma/editor';
import { fontStack } from '../fontFamilies.ts';

const measuring = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');

/** The CSS font for a text layer's glyphs: the bundled lettering face, or the Japanese gothic stack when vertical. */
export function cssFontFor(font: FontSpec, vertical: boolean): string {
  return `${font.italic ? 'italic ' : ''}${font.bold ? 'bold ' : ''}${font.size}px ${fontStack(font.family, vertical)}`;
}

/** Canvas2D text measurement in the fonts the canvas draws with. */
export function measurerFor(vertical: boolean): MeasureText {
  return (text, font) => {
    if (!measuring) return { width: text.length * font.size * 0.6 };
    measuring.font = cssFontFor(font, vertical);
    return { width: measuring.measureText(text).width };
  };
}

/** The size a text layer needs for its text (its bubble or rectangle included). */
export function fittedSize(data: TextData): { width: number; height: number } {
  const fitted = fitBubble(data, measurerFor(data.vertical));
  return { width: fitted.width, height: fitted.height };
}
