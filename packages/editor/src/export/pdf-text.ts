// Lettering as vector text in the PDF (issue 23 item 2): the glyph calls the text painter makes on the canvas are
// recorded in page pixels (pdf-text runs) and written here with embedded, subset fonts, so the text stays sharp and
// searchable. Each run keeps the canvas's placement: `matrix` maps the run's own space (x right, y down, origin
// where the canvas was asked to draw) to page pixels; `align` and `baseline` are the canvas's textAlign and
// textBaseline, turned into a PDF baseline with the embedded font's own metrics.
import type { PDFDocument } from 'pdf-lib';
import { concatTransformationMatrix, popGraphicsState, pushGraphicsState, rgb, type PDFFont } from 'pdf-lib';

/** A 2D affine matrix as Canvas2D writes it: x' = a·x + c·y + e, y' = b·x + d·y + f. */
export type PdfMatrix = [number, number, number, number, number, number];

export interface PdfTextRun {
  /** Consecutive pieces of the run, each in the font file that has its glyphs. */
  segments: { text: string; font: string }[];
  matrix: PdfMatrix;
  /** Font size in the run's own units. */
  size: number;
  color: string;
  align: 'left' | 'center';
  baseline: 'top' | 'middle';
}

export const multiplyMatrix = (m: PdfMatrix, n: PdfMatrix): PdfMatrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

function parseColor(color: string): { r: number; g: number; b: number } {
  const hex = color.replace('#', '');
  const full = hex.length === 3 || hex.length === 4 ? [...hex.slice(0, 3)].map((c) => c + c).join('') : hex;
  const n = Number.parseInt(full.slice(0, 6), 16);
  if (!Number.isFinite(n)) return { r: 0, g: 0, b: 0 };
  return { r: ((n >> 16) & 255) / 255, g: ((n >> 8) & 255) / 255, b: (n & 255) / 255 };
}

interface Metrics {
  ascent: number;
  descent: number;
}

interface FontkitFont {
  ascent: number;
  descent: number;
  unitsPerEm: number;
  'OS/2'?: { typoAscender?: number; typoDescender?: number };
}

/**
 * Ascent and descent per em of an embedded font. The OS/2 typographic figures when the font has them, which is what
 * Skia (Chrome's canvas) splits the em box by; hhea's otherwise.
 */
function metricsOf(font: PDFFont): Metrics {
  const f = (font as unknown as { embedder?: { font?: FontkitFont } }).embedder?.font;
  if (!f) return { ascent: 0.8, descent: -0.2 };
  const os2 = f['OS/2'];
  const typo = os2?.typoAscender && os2.typoDescender !== undefined && os2.typoAscender - os2.typoDescender > 0;
  const [ascent, descent] = typo ? [os2.typoAscender!, os2.typoDescender!] : [f.ascent, f.descent];
  return { ascent: ascent / f.unitsPerEm, descent: descent / f.unitsPerEm };
}

/**
 * Draws the runs of one page. `toPdf` maps page pixels to PDF points (y up); `fonts` holds the embedded font of
 * every file a segment names.
 */
export function drawTextRuns(
  page: ReturnType<PDFDocument['addPage']>,
  runs: readonly PdfTextRun[],
  toPdf: PdfMatrix,
  fonts: ReadonlyMap<string, PDFFont>,
): void {
  for (const run of runs) {
    const pieces = run.segments.flatMap((s) => {
      const font = fonts.get(s.font);
      return font && s.text.length > 0 ? [{ text: s.text, font }] : [];
    });
    const first = pieces[0];
    if (!first) continue;
    const widths = pieces.map((p) => p.font.widthOfTextAtSize(p.text, run.size));
    const total = widths.reduce((a, b) => a + b, 0);
    const { ascent, descent } = metricsOf(first.font);
    // Canvas 'top' and 'middle' are the top and middle of the em box: one em, split above and below the baseline in
    // the ratio of the font's ascent to its descent (as Chrome and Skia place them).
    const above = ascent / (ascent - descent);
    const baselineY = (run.baseline === 'top' ? above : above - 0.5) * run.size;
    const startX = run.align === 'center' ? -total / 2 : 0;
    // Glyphs are drawn y-up: flip the run's y-down space at the baseline.
    const m = multiplyMatrix(multiplyMatrix(toPdf, run.matrix), [1, 0, 0, -1, startX, baselineY]);
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...m));
    const { r, g, b } = parseColor(run.color);
    let x = 0;
    pieces.forEach((p, i) => {
      page.drawText(p.text, { x, y: 0, size: run.size, font: p.font, color: rgb(r, g, b) });
      x += widths[i]!;
    });
    page.pushOperators(popGraphicsState());
  }
}
