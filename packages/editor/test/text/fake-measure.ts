import { isCjk, type MeasureText } from '../../src/text/index.ts';

/** A deterministic stand-in for Canvas2D: CJK 1 em, space 0.3 em, everything else 0.5 em. */
export const fakeMeasure: MeasureText = (text, font) => ({
  width: Array.from(text).reduce((sum, c) => sum + (isCjk(c) ? 1 : c === ' ' ? 0.3 : 0.5) * font.size, 0),
});
