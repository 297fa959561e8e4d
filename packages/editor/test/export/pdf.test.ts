import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PDFNumber } from 'pdf-lib';
import { PDFDocument, PDFName, PDFRawStream, PDFRef } from 'pdf-lib';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ChapterPdfWriter,
  buildChapterPdf,
  pageBoxes,
  watermarkMask,
  type BandedRaster,
  type PdfPage,
  type Raster,
} from '../../src/index.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'koma-pdf-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A page image of one colour with a black square in its top-left quarter. */
function pageImage(width: number, height: number, color: string): PdfPage {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = color;
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#000';
  context.fillRect(0, 0, width / 4, height / 4);
  return { bytes: new Uint8Array(canvas.toBuffer('image/png')), kind: 'png', width, height };
}

/** A binary PPM (P6) as pdftoppm writes it: header, then RGB bytes. */
function readPpm(bytes: Buffer): { width: number; height: number; data: Buffer } {
  const header = bytes.subarray(0, 64).toString('latin1').split(/\s+/);
  const [, w, h, max] = header;
  const offset = `P6\n${w} ${h}\n${max}\n`.length;
  return { width: Number(w), height: Number(h), data: bytes.subarray(offset) };
}

describe('chapter PDF', () => {
  it('sizes pages in points from pixels and dpi, with bleed inside the bleed box and marks outside it', () => {
    const plain = pageBoxes(1700, 2400, 350, 0, false);
    expect(plain.media.width).toBeCloseTo((1700 * 72) / 350, 6);
    expect(plain.trim).toEqual(plain.media);
    expect(plain.bleed).toEqual(plain.media);
    // B5 manuscript with 3 mm bleed at 350 dpi: 3 mm = 41.34 px, printed as 8.504 pt.
    const bleedPx = (3 / 25.4) * 350;
    const b5 = pageBoxes(2508 + 2 * bleedPx, 3541 + 2 * bleedPx, 350, bleedPx, true);
    expect(b5.trim.width).toBeCloseTo((2508 * 72) / 350, 6);
    expect(b5.trim.x - b5.bleed.x).toBeCloseTo((3 / 25.4) * 72, 6);
    expect(b5.bleed.x).toBeGreaterThan(0);
    expect(b5.media.width).toBeCloseTo(b5.bleed.width + 2 * b5.bleed.x, 6);
  });

  it('writes every page with its boxes and marks a right-to-left book for viewers', async () => {
    const pages = [pageImage(400, 560, '#ff0000'), pageImage(400, 560, '#00ff00')];
    const bytes = await buildChapterPdf(pages, { title: 'Chapter 1', readingOrder: 'RIGHT_TO_LEFT', bleedPx: 20 });
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(2);
    expect(doc.getTitle()).toBe('Chapter 1');
    const page = doc.getPage(1);
    expect(page.getTrimBox().width).toBeCloseTo(((400 - 40) * 72) / 350, 3);
    expect(page.getBleedBox().width).toBeCloseTo((400 * 72) / 350, 3);
    const prefs = doc.catalog.lookup(PDFName.of('ViewerPreferences'));
    expect(String(prefs)).toContain('/Direction /R2L');
  });

  it('is read by poppler with the same boxes, and renders back as the page images', async () => {
    const pages = [pageImage(700, 980, '#3366cc')];
    const file = path.join(tmp, 'chapter.pdf');
    writeFileSync(file, await buildChapterPdf(pages, { title: 'T', readingOrder: 'LEFT_TO_RIGHT', dpi: 72 }));
    const info = execFileSync('pdfinfo', ['-box', file], { encoding: 'utf8' });
    expect(info).toMatch(/Pages:\s+1/);
    expect(info).toMatch(/TrimBox:\s+0\.00\s+0\.00\s+700\.00\s+980\.00/);
    expect(info).toMatch(/BleedBox:\s+0\.00\s+0\.00\s+700\.00\s+980\.00/);
    // At 72 dpi one point is one pixel: the rendered page is the image, pixel for pixel within JPEG-free rounding.
    execFileSync('pdftoppm', ['-r', '72', '-singlefile', file, path.join(tmp, 'page')]);
    const rendered = readPpm(readFileSync(path.join(tmp, 'page.ppm')));
    expect([rendered.width, rendered.height]).toEqual([700, 980]);
    const at = (x: number, y: number) => [...rendered.data.subarray((y * 700 + x) * 3, (y * 700 + x) * 3 + 3)];
    expect(at(10, 10)).toEqual([0, 0, 0]);
    const blue = at(600, 900);
    [0x33, 0x66, 0xcc].forEach((c, i) => expect(Math.abs(blue[i]! - c)).toBeLessThanOrEqual(2));
  });
});

/** RGBA pixels of one colour with a black square in the top-left quarter, as the exporter composes a page. */
function pageRaster(width: number, height: number, rgba: [number, number, number, number]): Raster {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dark = x < width / 4 && y < height / 4;
      data.set(dark ? [0, 0, 0, 255] : rgba, (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

describe('chapter PDF written page by page from pixels', () => {
  it('renders back as the pixels, grey pages in one channel, an SMask only for transparent pixels', async () => {
    const chunks: Uint8Array[] = [];
    const written = () => chunks.reduce((n, c) => n + c.length, 0);
    const writer = await ChapterPdfWriter.create({ title: 'T', readingOrder: 'LEFT_TO_RIGHT', dpi: 72 }, (chunk) =>
      chunks.push(chunk),
    );
    const before = written();
    await writer.addPage({ pixels: pageRaster(300, 420, [0x33, 0x66, 0xcc, 255]) });
    // The page's image leaves the writer as soon as it is added, not at the end.
    expect(written() - before).toBeGreaterThan(300);
    expect(Buffer.concat(chunks).toString('latin1')).toContain('/Subtype /Image');
    await writer.addPage({ pixels: pageRaster(300, 420, [0x80, 0x80, 0x80, 255]), grey: true });
    await writer.addPage({ pixels: pageRaster(300, 420, [0xff, 0, 0, 0]) });
    await writer.finish();
    const file = path.join(tmp, 'pixels.pdf');
    writeFileSync(file, Buffer.concat(chunks));
    // Read back whole by pdf-lib and by poppler (pdfinfo checks the cross-reference table).
    expect((await PDFDocument.load(Buffer.concat(chunks))).getPageCount()).toBe(3);
    expect(execFileSync('pdfinfo', [file], { encoding: 'utf8' })).toMatch(/Pages:\s+3/);
    // Every cross-reference entry points at its object, and startxref at the table.
    const text = Buffer.concat(chunks).toString('latin1');
    const startxref = Number(/startxref\s+(\d+)/.exec(text)?.[1]);
    expect(text.slice(startxref, startxref + 4)).toBe('xref');
    const entries = [...text.slice(startxref).matchAll(/^(\d+) (\d+)\n((?:\d{10} \d{5} [nf] \n)+)/gm)];
    let checked = 0;
    for (const [, first, , rows] of entries) {
      rows!
        .trim()
        .split('\n')
        .forEach((row, k) => {
          const [offset, , kind] = row.trim().split(' ');
          if (kind !== 'n') return;
          expect(text.slice(Number(offset), Number(offset) + 12)).toMatch(new RegExp(`^${Number(first) + k} 0 obj\\n`));
          checked++;
        });
    }
    expect(checked).toBeGreaterThan(10);

    const images = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).split('\n').slice(2);
    const rows = images.filter((l) => l.trim()).map((l) => l.trim().split(/\s+/));
    // page, num, type, width, height, color, comp: one RGB image, one grey image, then an RGB image and its smask.
    expect(rows.map((r) => [r[0], r[2], r[5], r[6]])).toEqual([
      ['1', 'image', 'rgb', '3'],
      ['2', 'image', 'gray', '1'],
      ['3', 'image', 'rgb', '3'],
      ['3', 'smask', 'gray', '1'],
    ]);

    execFileSync('pdftoppm', ['-r', '72', '-f', '1', '-l', '2', file, path.join(tmp, 'pixels')]);
    for (const [page, colour] of [
      [1, [0x33, 0x66, 0xcc]],
      [2, [0x80, 0x80, 0x80]],
    ] as const) {
      const rendered = readPpm(readFileSync(path.join(tmp, `pixels-${page}.ppm`)));
      expect([rendered.width, rendered.height]).toEqual([300, 420]);
      const at = (x: number, y: number) => [...rendered.data.subarray((y * 300 + x) * 3, (y * 300 + x) * 3 + 3)];
      expect(at(10, 10)).toEqual([0, 0, 0]);
      expect(at(250, 400)).toEqual([...colour]);
    }
  });
});

describe('chapter PDF lettering as vector text', () => {
  const font = (file: string) => new Uint8Array(readFileSync(path.join('node_modules/@fontsource', file)));
  const fonts = new Map([
    ['latin', font('comic-neue/files/comic-neue-latin-400-normal.woff')],
    ['jp', font('noto-sans-jp/files/noto-sans-jp-119-400-normal.woff')],
  ]);

  it('embeds the fonts, keeps the text searchable, and places a line and a vertical column where the canvas would', async () => {
    const page = pageImage(700, 980, '#ffffff');
    page.texts = [
      // A horizontal line at (300, 300), 40 px, textBaseline 'top' (clear of the image's black corner).
      {
        segments: [{ text: 'PRINT ME', font: 'latin' }],
        matrix: [1, 0, 0, 1, 300, 300],
        size: 40,
        color: '#000000',
        align: 'left',
        baseline: 'top',
      },
      // Two glyphs of a vertical column, each centred on its point, one under the other.
      ...['あ', 'い'].map((text, i) => ({
        segments: [{ text, font: 'jp' }],
        matrix: [1, 0, 0, 1, 500, 400 + i * 60] as [number, number, number, number, number, number],
        size: 50,
        color: '#000000',
        align: 'center' as const,
        baseline: 'middle' as const,
      })),
    ];
    const file = path.join(tmp, 'text.pdf');
    writeFileSync(file, await buildChapterPdf([page], { title: 'T', readingOrder: 'RIGHT_TO_LEFT', dpi: 72, fonts }));
    const listed = execFileSync('pdffonts', [file], { encoding: 'utf8' });
    // Subset fonts named with their six-letter tag (PDF 32000-1 §9.6.4), so pdffonts says "sub yes".
    expect(listed).toMatch(/[A-Z]{6}\+ComicNeue-Regular\s+CID TrueType\s+Identity-H\s+yes\s+yes/);
    expect(listed).toMatch(/[A-Z]{6}\+NotoSansJP\S*\s+CID TrueType\s+Identity-H\s+yes\s+yes/);
    // The tag comes from the glyph set, not chance: the same page gives the same names.
    writeFileSync(
      `${file}.again`,
      await buildChapterPdf([page], { title: 'T', readingOrder: 'RIGHT_TO_LEFT', dpi: 72, fonts }),
    );
    expect(execFileSync('pdffonts', [`${file}.again`], { encoding: 'utf8' })).toBe(listed);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('PRINT ME');
    expect(text).toMatch(/あ[\s\S]*い/);
    // The ink lies where a canvas (Skia, as in Chrome) draws the same calls with the same fonts: within 3 px.
    execFileSync('pdftoppm', ['-r', '72', '-singlefile', file, path.join(tmp, 'text')]);
    const rendered = readPpm(readFileSync(path.join(tmp, 'text.ppm')));
    GlobalFonts.registerFromPath(
      path.resolve('node_modules/@fontsource/comic-neue/files/comic-neue-latin-400-normal.woff'),
      'PdfTestLatin',
    );
    GlobalFonts.registerFromPath(
      path.resolve('node_modules/@fontsource/noto-sans-jp/files/noto-sans-jp-119-400-normal.woff'),
      'PdfTestJp',
    );
    const canvas = createCanvas(700, 980);
    const g = canvas.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, 700, 980);
    g.fillStyle = '#000';
    for (const run of page.texts) {
      g.font = `${run.size}px ${run.segments[0]!.font === 'jp' ? 'PdfTestJp' : 'PdfTestLatin'}`;
      g.textAlign = run.align;
      g.textBaseline = run.baseline;
      g.fillText(run.segments[0]!.text, run.matrix[4], run.matrix[5]);
    }
    const drawn = g.getImageData(0, 0, 700, 980).data;
    const inkBox = (dark: (x: number, y: number) => boolean, x0: number, y0: number, x1: number, y1: number) => {
      const box = { left: Infinity, top: Infinity, right: -1, bottom: -1 };
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          if (!dark(x, y)) continue;
          box.left = Math.min(box.left, x);
          box.right = Math.max(box.right, x);
          box.top = Math.min(box.top, y);
          box.bottom = Math.max(box.bottom, y);
        }
      }
      return box;
    };
    const inPdf = (x: number, y: number) => rendered.data[(y * 700 + x) * 3]! < 128;
    const onCanvas = (x: number, y: number) => drawn[(y * 700 + x) * 4]! < 128;
    for (const [x0, y0, x1, y1] of [
      [250, 250, 700, 360],
      [440, 340, 560, 500],
    ] as const) {
      const a = inkBox(inPdf, x0, y0, x1, y1);
      const b = inkBox(onCanvas, x0, y0, x1, y1);
      expect(b.right).toBeGreaterThan(0);
      for (const side of ['left', 'top', 'right', 'bottom'] as const)
        expect(Math.abs(a[side] - b[side]), side).toBeLessThanOrEqual(3);
    }
  });
});

describe('chapter PDF watermark and mirrored lettering', () => {
  const fonts = new Map([
    [
      'latin',
      new Uint8Array(readFileSync('node_modules/@fontsource/comic-neue/files/comic-neue-latin-400-normal.woff')),
    ],
  ]);
  const white = (width: number, height: number): Raster => ({
    width,
    height,
    data: new Uint8ClampedArray(width * height * 4).fill(255),
  });
  const line = (matrix: [number, number, number, number, number, number]) => ({
    segments: [{ text: 'PRINT ME', font: 'latin' }],
    matrix,
    size: 120,
    color: '#000000',
    align: 'left' as const,
    baseline: 'top' as const,
  });

  async function render(name: string, pages: Parameters<typeof buildChapterPdf>[0], options: object) {
    const file = path.join(tmp, `${name}.pdf`);
    const bytes = await buildChapterPdf(pages, {
      title: 'T',
      readingOrder: 'LEFT_TO_RIGHT',
      dpi: 72,
      fonts,
      ...options,
    });
    writeFileSync(file, bytes);
    // Rendered at the pages' own dpi: one pixel of the page image is one pixel of the render.
    const dpi = String((options as { dpi?: number }).dpi ?? 72);
    execFileSync('pdftoppm', ['-r', dpi, '-singlefile', file, path.join(tmp, name)]);
    return { file, image: readPpm(readFileSync(path.join(tmp, `${name}.ppm`))) };
  }

  it('draws the free-plan watermark over the vector lettering, not under it', async () => {
    const page = () => ({ pixels: white(700, 980), texts: [line([1, 0, 0, 1, 40, 300])] });
    const plain = await render('wm-off', [page()], {});
    const marked = await render('wm-on', [page()], { watermark: true });
    const mask = watermarkMask(700, 980);
    const under: number[] = [];
    const paper: number[] = [];
    for (let i = 0; i < 700 * 980; i++) {
      if (mask[i] !== 1) continue;
      const ink = plain.image.data[i * 3]!;
      if (ink === 0) under.push(marked.image.data[i * 3]!);
      else if (ink === 255) paper.push(marked.image.data[i * 3]!);
    }
    expect(under.length).toBeGreaterThan(200);
    const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
    // Black glyphs under the mark are pulled towards grey as the PNG's pixels are (0·0.7 + 128·0.3 ≈ 38), white paper
    // likewise (255·0.7 + 38 ≈ 217): the mark is over the text. Under the text it would leave the glyphs black.
    expect(Math.abs(median(under) - 38)).toBeLessThanOrEqual(3);
    expect(Math.abs(median(paper) - 217)).toBeLessThanOrEqual(3);
    // One stencil for the whole chapter, whatever its page count.
    const two = await buildChapterPdf([page(), page()], { title: 'T', readingOrder: 'LEFT_TO_RIGHT', watermark: true });
    writeFileSync(path.join(tmp, 'wm-two.pdf'), two);
    const listed = execFileSync('pdfimages', ['-list', path.join(tmp, 'wm-two.pdf')], { encoding: 'utf8' });
    expect(listed.split('\n').filter((l) => /\bstencil\b/.test(l))).toHaveLength(2);
    expect(
      Buffer.from(two)
        .toString('latin1')
        .match(/\/ImageMask true/g),
    ).toHaveLength(1);
  });

  it('keeps a screentone page pure black and white, the mark on the screen’s dots', async () => {
    const { image } = await render('wm-screen', [{ pixels: white(700, 980), grey: true }], {
      watermark: true,
      dpi: 72 * 4,
      screen: { lpi: 60, angle: 45, dpi: 72 * 4 },
    });
    const mask = watermarkMask(700, 980);
    let grey = 0;
    let ink = 0;
    let marked = 0;
    for (let i = 0; i < 700 * 980; i++) {
      const v = image.data[i * 3]!;
      if (v > 10 && v < 245) grey++;
      if (mask[i] === 1) {
        marked++;
        if (v < 128) ink++;
      }
    }
    expect(grey / (700 * 980)).toBeLessThan(0.005);
    // A mark on paper is grey 217 as dots: 15 % of its pixels in ink.
    expect(Math.abs(ink / marked - (1 - 217 / 255))).toBeLessThan(0.05);
  });

  it('lets text extraction read flipped lettering forwards', async () => {
    const { file } = await render('flipped', [{ pixels: white(700, 980), texts: [line([-1, 0, 0, 1, 660, 300])] }], {});
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    expect(text).toContain('PRINT ME');
    expect(text).not.toContain('EM TNIRP');
    const upsideDown = await render(
      'flipped-y',
      [{ pixels: white(700, 980), texts: [line([1, 0, 0, -1, 40, 600])] }],
      {},
    );
    expect(execFileSync('pdftotext', [upsideDown.file, '-'], { encoding: 'utf8' })).toContain('PRINT ME');
  });
});

describe('chapter PDF page images compressed band by band', () => {
  /** Stripes of eight rows (rendering may smooth a row into the next) of their own colour and, when `alpha`, opacity. */
  const stripe = (y: number) => {
    const k = Math.floor(y / 8);
    return [(k * 37) % 256, (k * 101) % 256, 255 - ((k * 13) % 256), 55 + ((k * 29) % 200)] as const;
  };
  function striped(width: number, height: number, alpha: boolean): Raster {
    const data = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y++) {
      const [r, g, b, a] = stripe(y);
      const row = [r, g, b, alpha ? a : 255];
      for (let x = 0; x < width; x++) data.set(row, (y * width + x) * 4);
    }
    return { width, height, data };
  }

  it('renders back row for row across bands, its SMask too, each stream’s indirect /Length its own size', async () => {
    // 600 px rows of RGB are 1,800 bytes: a 1,200-row page is five bands of the compressor's 512 KiB.
    const [width, height] = [600, 1200];
    const chunks: Uint8Array[] = [];
    const writer = await ChapterPdfWriter.create({ title: 'T', readingOrder: 'LEFT_TO_RIGHT', dpi: 72 }, (chunk) =>
      chunks.push(chunk),
    );
    await writer.addPage({ pixels: striped(width, height, false) });
    await writer.addPage({ pixels: striped(width, height, true) });
    await writer.finish();
    const bytes = Buffer.concat(chunks);
    const file = path.join(tmp, 'bands.pdf');
    writeFileSync(file, bytes);

    const doc = await PDFDocument.load(bytes);
    let streams = 0;
    for (const [, object] of doc.context.enumerateIndirectObjects()) {
      if (!(object instanceof PDFRawStream) || object.dict.get(PDFName.of('Subtype'))?.toString() !== '/Image')
        continue;
      const length = object.dict.get(PDFName.of('Length'));
      expect(length).toBeInstanceOf(PDFRef);
      expect((doc.context.lookup(length) as PDFNumber).asNumber()).toBe(object.contents.length);
      streams++;
    }
    // Two page images and the second one's SMask.
    expect(streams).toBe(3);

    execFileSync('pdftoppm', ['-r', '72', file, path.join(tmp, 'bands')]);
    for (const page of [1, 2]) {
      const rendered = readPpm(readFileSync(path.join(tmp, `bands-${page}.ppm`)));
      expect([rendered.width, rendered.height]).toEqual([width, height]);
      for (let y = 4; y < height; y += 8) {
        const [r, g, b, alpha] = stripe(y);
        const a = page === 2 ? alpha / 255 : 1;
        const want = [r, g, b].map((c) => c * a + 255 * (1 - a));
        const got = [...rendered.data.subarray((y * width + 300) * 3, (y * width + 300) * 3 + 3)];
        got.forEach((c, i) => expect(Math.abs(c - want[i]!), `page ${page} row ${y}`).toBeLessThanOrEqual(2));
      }
    }
  });
});

describe('chapter PDF page image drawn band by band', () => {
  it('writes the same image stream as the whole raster, drawing each row once and never the whole page', async () => {
    const [width, height] = [600, 1200];
    const data = new Uint8ClampedArray(width * height * 4);
    for (let i = 0; i < width * height; i++) data.set([(i * 7) % 256, (i >> 4) % 256, (i * 13) % 256, 255], i * 4);
    const whole: Raster = { width, height, data };
    const drawn: [number, number][] = [];
    const banded: BandedRaster = {
      width,
      height,
      opaque: true,
      drawRows(y0, band) {
        drawn.push([y0, band.height]);
        band.data.set(data.subarray(y0 * width * 4, (y0 + band.height) * width * 4));
      },
    };
    const images = async (pixels: Raster | BandedRaster) => {
      const chunks: Uint8Array[] = [];
      const writer = await ChapterPdfWriter.create({ title: 'T', readingOrder: 'LEFT_TO_RIGHT', dpi: 72 }, (c) =>
        chunks.push(c),
      );
      await writer.addPage({ pixels });
      await writer.finish();
      const doc = await PDFDocument.load(Buffer.concat(chunks));
      return [...doc.context.enumerateIndirectObjects()]
        .map(([, o]) => o)
        .filter(
          (o): o is PDFRawStream =>
            o instanceof PDFRawStream && o.dict.get(PDFName.of('Subtype'))?.toString() === '/Image',
        )
        .map((o) => Buffer.from(o.contents).toString('base64'));
    };
    const fromWhole = await images(whole);
    const fromBands = await images(banded);
    expect(fromWhole).toHaveLength(1);
    expect(fromBands).toEqual(fromWhole);
    // Bands in order, each row once, none of them the page.
    expect(drawn.length).toBeGreaterThan(1);
    let next = 0;
    for (const [y0, rows] of drawn) {
      expect(y0).toBe(next);
      expect(rows).toBeLessThan(height);
      next += rows;
    }
    expect(next).toBe(height);
  });
});

describe('chapter PDF options', () => {
  it('refuses a screen at another resolution than the pages, naming both', async () => {
    const screen = { lpi: 60, angle: 45, dpi: 600 };
    await expect(
      ChapterPdfWriter.create({ title: 'T', readingOrder: 'LEFT_TO_RIGHT', dpi: 350, screen }, () => undefined),
    ).rejects.toThrow("screen.dpi (600) must be the pages' dpi (350)");
    await expect(
      ChapterPdfWriter.create({ title: 'T', readingOrder: 'LEFT_TO_RIGHT', dpi: 600, screen }, () => undefined),
    ).resolves.toBeInstanceOf(ChapterPdfWriter);
  });
});
