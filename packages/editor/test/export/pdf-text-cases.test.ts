// The PDF's vector lettering against the page composite it replaces: each case the text painter can produce (turned,
// flipped, outlined, translucent, blended, slanted, clipped to a bordered panel) is written to a PDF over a page
// image, rendered back with poppler's pdftoppm, and compared with a Skia canvas that draws the same calls the way
// the PNG export composites a text layer (its own raster, then opacity and blend mode, then the clip, the panel's
// border on top).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCanvas, GlobalFonts, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { buildChapterPdf, type PdfMatrix, type PdfTextLayer, type PdfTextRun } from '../../src/index.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'koma-pdf-text-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const W = 700;
const H = 980;
const FONT_FILE = path.resolve('node_modules/@fontsource/comic-neue/files/comic-neue-latin-400-normal.woff');
GlobalFonts.registerFromPath(FONT_FILE, 'PdfCaseLatin');
const fonts = new Map([['latin', new Uint8Array(readFileSync(FONT_FILE))]]);

const PANEL = [
  { x: 380, y: 800 },
  { x: 660, y: 790 },
  { x: 650, y: 930 },
  { x: 390, y: 920 },
];
const BORDER = { width: 5, color: '#000000' };

interface Case {
  name: string;
  /** Where the case's ink lies, for the comparison. */
  box: [number, number, number, number];
  layer: PdfTextLayer;
  runs: Omit<PdfTextRun, 'layer'>[];
}

const turn = (deg: number, x: number, y: number): PdfMatrix => {
  const r = (deg * Math.PI) / 180;
  return [Math.cos(r), Math.sin(r), -Math.sin(r), Math.cos(r), x, y];
};
const run = (text: string, matrix: PdfMatrix, extra: Partial<PdfTextRun> = {}): Omit<PdfTextRun, 'layer'> => ({
  segments: [{ text, font: 'latin' }],
  matrix,
  size: 44,
  color: '#000000',
  align: 'left',
  baseline: 'top',
  ...extra,
});
const layer = (id: string, extra: Partial<PdfTextLayer> = {}): PdfTextLayer => ({
  id,
  opacity: 1,
  blendMode: 'normal',
  ...extra,
});
const outlined = (text: string, matrix: PdfMatrix, fill: string): Omit<PdfTextRun, 'layer'>[] => [
  run(text, matrix, { color: '#cc0000', stroke: { lineWidth: 6 } }),
  run(text, matrix, { color: fill }),
];

const CASES: Case[] = [
  { name: 'turned', box: [40, 20, 360, 260], layer: layer('turned'), runs: [run('TURNED', turn(30, 90, 60))] },
  {
    name: 'flipped',
    box: [380, 40, 700, 140],
    layer: layer('flipped'),
    runs: [run('FLIPPED', [-1, 0, 0, 1, 660, 60])],
  },
  {
    name: 'outlined',
    box: [40, 270, 400, 360],
    layer: layer('outlined'),
    runs: outlined('OUTLINED', [1, 0, 0, 1, 80, 290], '#ffee00'),
  },
  {
    name: 'translucent',
    box: [40, 400, 400, 500],
    layer: layer('translucent', { opacity: 0.5 }),
    runs: outlined('GHOSTLY', [1, 0, 0, 1, 80, 420], '#ffffff'),
  },
  {
    name: 'multiply',
    box: [40, 520, 400, 620],
    layer: layer('multiply', { blendMode: 'multiply' }),
    runs: [run('MULTIPLY', [1, 0, 0, 1, 80, 540], { color: '#ff3333' })],
  },
  {
    name: 'screen',
    box: [380, 400, 700, 500],
    layer: layer('screen', { blendMode: 'screen', opacity: 0.8 }),
    runs: [run('SCREEN', [1, 0, 0, 1, 420, 420], { color: '#ffcc00' })],
  },
  {
    name: 'italic',
    box: [40, 640, 400, 740],
    layer: layer('italic'),
    runs: [run('SLANTED', [1, 0, 0, 1, 80, 660], { segments: [{ text: 'SLANTED', font: 'latin', skew: 0.25 }] })],
  },
  {
    name: 'clipped',
    box: [300, 760, 700, 960],
    layer: layer('clipped', { clip: PANEL, border: BORDER }),
    runs: [run('CLIPPED', turn(-8, 310, 820), { size: 80, color: '#006600' })],
  },
];

/** The page image under the lettering: white, a blue band to blend against, the panel with its border. */
function background(): Canvas {
  const canvas = createCanvas(W, H);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, W, H);
  g.fillStyle = '#3366cc';
  g.fillRect(0, 380, W, 250);
  tracePanel(g);
  g.fillStyle = '#eeeeee';
  g.fill();
  strokePanel(g);
  return canvas;
}
function tracePanel(g: SKRSContext2D): void {
  g.beginPath();
  PANEL.forEach((p, i) => (i === 0 ? g.moveTo(p.x, p.y) : g.lineTo(p.x, p.y)));
  g.closePath();
}
function strokePanel(g: SKRSContext2D): void {
  tracePanel(g);
  g.lineWidth = BORDER.width;
  g.lineJoin = 'round';
  g.strokeStyle = BORDER.color;
  g.stroke();
}

/**
 * The PNG export's picture: each layer drawn alone, composited with its appearance, clipped, the border over it;
 * all over `under`, the page image as poppler draws it (poppler smooths an image's edges even at 1:1, which is not
 * what this test is about).
 */
function reference(under: { data: Buffer }): Uint8ClampedArray {
  const page = createCanvas(W, H);
  const g = page.getContext('2d');
  const pixels = g.createImageData(W, H);
  for (let i = 0; i < W * H; i++) {
    for (let k = 0; k < 3; k++) pixels.data[i * 4 + k] = under.data[i * 3 + k]!;
    pixels.data[i * 4 + 3] = 255;
  }
  g.putImageData(pixels, 0, 0);
  for (const c of CASES) {
    const own = createCanvas(W, H);
    const l = own.getContext('2d');
    for (const r of c.runs) {
      l.save();
      l.setTransform(...r.matrix);
      l.font = `${r.size}px PdfCaseLatin`;
      l.textAlign = r.align;
      l.textBaseline = 'alphabetic';
      const ascent = l.measureText('H').emHeightAscent;
      // The browser's fake italic slants about the baseline.
      l.transform(1, 0, -(r.segments[0]!.skew ?? 0), 1, 0, ascent);
      if (r.stroke) {
        l.lineWidth = r.stroke.lineWidth;
        l.lineJoin = 'round';
        l.strokeStyle = r.color;
        l.strokeText(r.segments[0]!.text, 0, 0);
      } else {
        l.fillStyle = r.color;
        l.fillText(r.segments[0]!.text, 0, 0);
      }
      l.restore();
    }
    g.save();
    if (c.layer.clip) {
      tracePanel(g);
      g.clip();
    }
    g.globalAlpha = c.layer.opacity;
    g.globalCompositeOperation = c.layer.blendMode === 'normal' ? 'source-over' : c.layer.blendMode;
    g.drawImage(own, 0, 0);
    // The panel group draws its border over the text clipped to it.
    if (c.layer.border) strokePanel(g);
    g.restore();
  }
  return g.getImageData(0, 0, W, H).data;
}

function readPpm(bytes: Buffer): { width: number; height: number; data: Buffer } {
  const [, w, h, max] = bytes.subarray(0, 64).toString('latin1').split(/\s+/);
  return { width: Number(w), height: Number(h), data: bytes.subarray(`P6\n${w} ${h}\n${max}\n`.length) };
}

const BLOCK = 6;

/**
 * Mean absolute difference per channel (0–255) of the two pictures averaged over 6×6-pixel blocks, inside a box.
 * Averaging forgives what two rasterisers do differently at a glyph's edge (poppler's FreeType coverage inks about
 * 10 % more than Skia's) but not a glyph out of place, turned the wrong way, missing or of the wrong colour.
 */
function meanDiff(rgb: Buffer, rgba: Uint8ClampedArray, [x0, y0, x1, y1]: Case['box']): number {
  let sum = 0;
  let blocks = 0;
  for (let by = y0; by + BLOCK <= y1; by += BLOCK) {
    for (let bx = x0; bx + BLOCK <= x1; bx += BLOCK) {
      for (let k = 0; k < 3; k++) {
        let a = 0;
        let b = 0;
        for (let y = by; y < by + BLOCK; y++) {
          for (let x = bx; x < bx + BLOCK; x++) {
            a += rgb[(y * W + x) * 3 + k]!;
            b += rgba[(y * W + x) * 4 + k]!;
          }
        }
        sum += Math.abs(a - b) / (BLOCK * BLOCK);
      }
      blocks++;
    }
  }
  return sum / (blocks * 3);
}

describe('PDF lettering beyond plain upright text', () => {
  it('turns, flips, outlines, fades, blends, slants and clips text as the page composite does, as searchable text', async () => {
    const image = background();
    const runs: PdfTextRun[] = CASES.flatMap((c) => c.runs.map((r) => ({ ...r, layer: c.layer })));
    const page = { bytes: new Uint8Array(image.toBuffer('image/png')), kind: 'png' as const, width: W, height: H };
    const render = async (name: string, texts: PdfTextRun[]) => {
      const file = path.join(tmp, `${name}.pdf`);
      const options = { title: 'T', readingOrder: 'LEFT_TO_RIGHT' as const, dpi: 72, fonts };
      writeFileSync(file, await buildChapterPdf([{ ...page, texts }], options));
      execFileSync('pdftoppm', ['-r', '72', '-singlefile', file, path.join(tmp, name)]);
      return { file, ...readPpm(readFileSync(path.join(tmp, `${name}.ppm`))) };
    };
    const bare = await render('bare', []);
    const rendered = await render('cases', runs);
    const file = rendered.file;
    const words = execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' });
    for (const word of ['TURNED', 'OUTLINED', 'GHOSTLY', 'MULTIPLY', 'SCREEN', 'SLANTED', 'CLIPPED'])
      expect(words).toContain(word);
    expect([rendered.width, rendered.height]).toEqual([W, H]);
    const want = reference(bare);
    const table = CASES.map((c) => ({
      name: c.name,
      pdf: meanDiff(rendered.data, want, c.box),
      // What the case's lettering changes in the picture: the PDF must be much closer than that.
      text: meanDiff(bare.data, want, c.box),
    }));
    console.table(table);
    const shots = process.env.PDF_CASES_SHOTS;
    if (shots) {
      // For a person to look at: the PDF as poppler draws it, and the composite it should match.
      execFileSync('pdftoppm', ['-r', '72', '-png', '-singlefile', file, path.join(shots, 'pdf-cases')]);
      const canvas = createCanvas(W, H);
      const data = canvas.getContext('2d').createImageData(W, H);
      data.data.set(want);
      canvas.getContext('2d').putImageData(data, 0, 0);
      writeFileSync(path.join(shots, 'pdf-cases-reference.png'), canvas.toBuffer('image/png'));
    }
    for (const row of table) {
      expect(row.text, row.name).toBeGreaterThan(3);
      expect(row.pdf, row.name).toBeLessThan(row.text * 0.3);
    }
  });
});
