// Lettering as vector text in the PDF (issue 23 item 2): the glyph calls the text painter makes on the canvas are
// recorded in page pixels (pdf-text runs) and written here with embedded, subset fonts, so the text stays sharp and
// searchable. Each run keeps the canvas's placement: `matrix` maps the run's own space (x right, y down, origin
// where the canvas was asked to draw) to page pixels; `align` and `baseline` are the canvas's textAlign and
// textBaseline, turned into a PDF baseline with the embedded font's own metrics.
import type { PDFDocument } from 'pdf-lib';
import {
  beginText,
  clip,
  closePath,
  concatTransformationMatrix,
  drawObject,
  endPath,
  endText,
  LineJoinStyle,
  lineTo,
  moveTo,
  PDFArray,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames,
  popGraphicsState,
  pushGraphicsState,
  setFillingRgbColor,
  setFontAndSize,
  setGraphicsState,
  setLineJoin,
  setLineWidth,
  setStrokingRgbColor,
  setTextMatrix,
  setTextRenderingMode,
  stroke,
  TextRenderingMode,
  type PDFFont,
} from 'pdf-lib';
import type { BlendMode } from '@koma/domain';

/** A 2D affine matrix as Canvas2D writes it: x' = a·x + c·y + e, y' = b·x + d·y + f. */
export type PdfMatrix = [number, number, number, number, number, number];

export interface PdfTextRun {
  /**
   * Consecutive pieces of the run, each in the font file that has its glyphs. `skew` slants a piece the way the
   * browser fakes italic for a face without an italic file (x moves by skew × height above the baseline).
   */
  segments: { text: string; font: string; skew?: number }[];
  matrix: PdfMatrix;
  /** Font size in the run's own units. */
  size: number;
  /** Fill colour, or the outline's colour for a stroke run. */
  color: string;
  align: 'left' | 'center';
  baseline: 'top' | 'middle';
  /** A canvas strokeText (round joins, `lineWidth` in the run's units) instead of fillText. */
  stroke?: { lineWidth: number };
  /**
   * The text layer the run belongs to. Consecutive runs of one layer are drawn as one group: with the layer's
   * opacity and blend mode applied to the group as a whole (as the page composite applies them to the layer's
   * raster), and clipped to its panel.
   */
  layer?: PdfTextLayer;
}

export interface PdfTextLayer {
  id: string;
  opacity: number;
  blendMode: BlendMode;
  /** The panel outline the layer is clipped to, in page pixels. */
  clip?: { x: number; y: number }[];
  /** The panel's border, drawn over the text again inside the clip (the page image has it under the text). */
  border?: { width: number; color: string };
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
  layout(text: string): { glyphs: { advanceWidth: number }[]; positions: { xAdvance: number }[] };
  'OS/2'?: { typoAscender?: number; typoDescender?: number };
}

const fontkitOf = (font: PDFFont) => (font as unknown as { embedder?: { font?: FontkitFont } }).embedder?.font;

/**
 * The glyphs of `text` as a TJ operand, kerned as the canvas kerns them, and its advance at `size`. pdf-lib's own
 * text drawing shows the glyphs at their plain advance widths, so a kerned pair (L·Y, A·V) came out wider than on
 * the page image; fontkit's layout (GPOS kerning, as HarfBuzz does for the canvas) gives each glyph's real advance.
 */
function kerned(font: PDFFont, text: string, size: number): { operand: PDFArray; width: number } | null {
  const f = fontkitOf(font);
  const hex = font.encodeText(text).toString().slice(1, -1);
  if (!f) return null;
  const { glyphs, positions } = f.layout(text);
  if (glyphs.length * 4 !== hex.length) return null;
  const operand = PDFArray.withContext(font.doc.context);
  let width = 0;
  glyphs.forEach((glyph, i) => {
    const advance = positions[i]?.xAdvance ?? glyph.advanceWidth;
    operand.push(PDFHexString.of(hex.slice(i * 4, i * 4 + 4)));
    // TJ moves left by n/1000 em: a kerned pair is closer than the glyph's own width says.
    const adjust = ((glyph.advanceWidth - advance) * 1000) / f.unitsPerEm;
    if (adjust !== 0 && i < glyphs.length - 1) operand.push(PDFNumber.of(adjust));
    width += advance;
  });
  return { operand, width: (width * size) / f.unitsPerEm };
}

/**
 * Ascent and descent per em of an embedded font. The OS/2 typographic figures when the font has them, which is what
 * Skia (Chrome's canvas) splits the em box by; hhea's otherwise.
 */
function metricsOf(font: PDFFont): Metrics {
  const f = fontkitOf(font);
  if (!f) return { ascent: 0.8, descent: -0.2 };
  const os2 = f['OS/2'];
  const typo = os2?.typoAscender && os2.typoDescender !== undefined && os2.typoAscender - os2.typoDescender > 0;
  const [ascent, descent] = typo ? [os2.typoAscender!, os2.typoDescender!] : [f.ascent, f.descent];
  return { ascent: ascent / f.unitsPerEm, descent: descent / f.unitsPerEm };
}

export const BLEND_NAMES: Record<BlendMode, string> = {
  normal: 'Normal',
  multiply: 'Multiply',
  screen: 'Screen',
  overlay: 'Overlay',
  darken: 'Darken',
  lighten: 'Lighten',
};

/** The operators of one run, in page pixels → PDF points through `toPdf`; `fontKey` names a font in the resources. */
function runOperators(
  run: PdfTextRun,
  toPdf: PdfMatrix,
  fonts: ReadonlyMap<string, PDFFont>,
  fontKey: (font: PDFFont) => PDFName,
): PDFOperator[] {
  const pieces = run.segments.flatMap((s) => {
    const font = fonts.get(s.font);
    return font && s.text.length > 0 ? [{ text: s.text, font, skew: s.skew ?? 0 }] : [];
  });
  const first = pieces[0];
  if (!first) return [];
  const shown = pieces.map((p) => {
    const k = kerned(p.font, p.text, run.size);
    return k
      ? { op: PDFOperator.of(PDFOperatorNames.ShowTextAdjusted, [k.operand]), width: k.width }
      : {
          op: PDFOperator.of(PDFOperatorNames.ShowText, [p.font.encodeText(p.text)]),
          width: p.font.widthOfTextAtSize(p.text, run.size),
        };
  });
  const total = shown.reduce((a, b) => a + b.width, 0);
  const { ascent, descent } = metricsOf(first.font);
  // Canvas 'top' and 'middle' are the top and middle of the em box: one em, split above and below the baseline in
  // the ratio of the font's ascent to its descent (as Chrome and Skia place them).
  const above = ascent / (ascent - descent);
  const baselineY = (run.baseline === 'top' ? above : above - 0.5) * run.size;
  const startX = run.align === 'center' ? -total / 2 : 0;
  // Glyphs are drawn y-up: flip the run's y-down space at the baseline.
  const m = multiplyMatrix(multiplyMatrix(toPdf, run.matrix), [1, 0, 0, -1, startX, baselineY]);
  const { r, g, b } = parseColor(run.color);
  const ops: PDFOperator[] = [pushGraphicsState(), concatTransformationMatrix(...m)];
  // A mirrored run (flipX or flipY) has its glyphs going backwards or upside down on the page, and text extraction
  // reads a horizontal mirror right to left ("EM TNIRP"): the run carries its text as ActualText (ISO 32000-1
  // §14.9.4), which extractors (poppler's pdftotext among them) read instead of the glyphs.
  const [ra, rb, rc, rd] = run.matrix;
  const mirrored = ra * rd - rb * rc < 0;
  if (mirrored) {
    const actual = PDFHexString.fromText(pieces.map((p) => p.text).join('')).toString();
    // The property list written inline (pdf-lib's operator arguments take no dictionary object).
    ops.push(
      PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of('Span'), `<< /ActualText ${actual} >>`]),
    );
  }
  ops.push(beginText());
  if (run.stroke) {
    ops.push(
      setTextRenderingMode(TextRenderingMode.Outline),
      setStrokingRgbColor(r, g, b),
      setLineWidth(run.stroke.lineWidth),
      setLineJoin(LineJoinStyle.Round),
    );
  } else ops.push(setFillingRgbColor(r, g, b));
  let x = 0;
  pieces.forEach((p, i) => {
    ops.push(setFontAndSize(fontKey(p.font), run.size), setTextMatrix(1, 0, p.skew, 1, x, 0), shown[i]!.op);
    x += shown[i]!.width;
  });
  ops.push(endText());
  if (mirrored) ops.push(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
  ops.push(popGraphicsState());
  return ops;
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
  const context = page.doc.context;
  const pageFont = (font: PDFFont) => page.node.newFontDictionary(font.name, font.ref);
  for (let i = 0; i < runs.length;) {
    const layer = runs[i]!.layer;
    let j = i + 1;
    while (j < runs.length && layer && runs[j]!.layer?.id === layer.id) j++;
    const group = runs.slice(i, j);
    i = j;
    if (!layer) {
      page.pushOperators(...group.flatMap((run) => runOperators(run, toPdf, fonts, pageFont)));
      continue;
    }
    const ops: PDFOperator[] = [pushGraphicsState()];
    const outline = layer.clip?.map((p) => ({
      x: toPdf[0] * p.x + toPdf[2] * p.y + toPdf[4],
      y: toPdf[1] * p.x + toPdf[3] * p.y + toPdf[5],
    }));
    const path = () =>
      outline ? [...outline.map((p, k) => (k === 0 ? moveTo(p.x, p.y) : lineTo(p.x, p.y))), closePath()] : [];
    if (outline && outline.length >= 3) ops.push(...path(), clip(), endPath());
    if (layer.opacity < 1 || layer.blendMode !== 'normal') {
      // The layer's glyphs (fills and outlines) form an isolated transparency group, composited once with the
      // layer's opacity and blend mode: overlapping glyphs and an outline under its fill do not show through.
      const keys = new Map<PDFFont, PDFName>();
      const formFont = (font: PDFFont) => {
        let key = keys.get(font);
        if (!key) keys.set(font, (key = PDFName.of(`F${keys.size}`)));
        return key;
      };
      const inner = group.flatMap((run) => runOperators(run, toPdf, fonts, formFont));
      const { width, height } = page.getSize();
      const form = context.formXObject(inner, {
        BBox: [0, 0, width, height],
        Group: { S: 'Transparency', I: true, K: false },
        Resources: { Font: Object.fromEntries([...keys].map(([font, key]) => [key.asString().slice(1), font.ref])) },
      });
      const name = page.node.newXObject('Tx', context.register(form));
      const state = page.node.newExtGState(
        'GS',
        context.obj({ Type: 'ExtGState', ca: layer.opacity, CA: layer.opacity, BM: BLEND_NAMES[layer.blendMode] }),
      );
      ops.push(setGraphicsState(state), drawObject(name));
    } else ops.push(...group.flatMap((run) => runOperators(run, toPdf, fonts, pageFont)));
    if (outline && outline.length >= 3 && layer.border && layer.border.width > 0) {
      const { r, g, b } = parseColor(layer.border.color);
      const k = Math.hypot(toPdf[0], toPdf[1]);
      ops.push(
        pushGraphicsState(),
        setStrokingRgbColor(r, g, b),
        setLineWidth(layer.border.width * k),
        setLineJoin(LineJoinStyle.Round),
        ...path(),
        stroke(),
        popGraphicsState(),
      );
    }
    ops.push(popGraphicsState());
    page.pushOperators(...ops);
  }
}
