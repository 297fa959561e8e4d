// The worker's PDF for a one-ink press, read back from the file's own pixels: the screentone's dots and the
// watermark's must repeat at the page setup's resolution over the chosen line count (dpi / lpi pixels), whatever
// that resolution is (350 dpi colour setups, 600 dpi monochrome ones).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { watermarkMask, type PagePlan, type Raster } from '@koma/editor';
import { handlePdf } from './pdf-worker.ts';
import type { WorkerReply } from './protocol.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'koma-pdf-worker-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const WIDTH = 600;
const HEIGHT = 240;
const LPI = 50;

/** A page of one mid grey over the white background, as the main thread hands it to the worker. */
function greyPage(): { plan: PagePlan; rasters: [string, Raster][] } {
  const data = new Uint8ClampedArray(WIDTH * HEIGHT * 4);
  for (let i = 0; i < data.length; i += 4) data.set([128, 128, 128, 255], i);
  const rect = { x: 0, y: 0, width: WIDTH, height: HEIGHT };
  const base = { layerId: null, hidden: false, clipping: false, trim: false, rect } as const;
  const plan: PagePlan = {
    name: 'Page 1',
    width: WIDTH,
    height: HEIGHT,
    area: rect,
    scaleX: 1,
    scaleY: 1,
    nodes: [
      { kind: 'raster', key: 'background', name: 'Background', role: 'background', ...base },
      { kind: 'raster', key: 'grey', name: 'Grey', role: 'image', ...base },
    ],
  };
  return { plan, rasters: [['grey', { width: WIDTH, height: HEIGHT, data }]] };
}

/** The PDF the worker writes for one screened, watermarked page at `dpi`. */
async function screenedPdf(dpi: number): Promise<string> {
  const replies: WorkerReply[] = [];
  const reply = (m: WorkerReply) => void replies.push(m);
  const tone = { kind: 'screentone', lpi: LPI, angle: 0 } as const;
  const options = { title: 'T', readingOrder: 'LEFT_TO_RIGHT', dpi, bleedPx: 0, watermark: true } as const;
  await handlePdf({ type: 'pdfStart', options, tone, fileName: 't.pdf' }, reply);
  await handlePdf({ type: 'pdfPage', page: { ...greyPage(), fileName: 'p1' }, texts: [] }, reply);
  await handlePdf({ type: 'pdfFinish' }, reply);
  const last = replies.at(-1);
  if (last?.type !== 'blob') throw new Error(`no PDF: ${JSON.stringify(last)}`);
  const file = path.join(tmp, `screen-${dpi}.pdf`);
  writeFileSync(file, new Uint8Array(await last.blob.arrayBuffer()));
  return file;
}

/**
 * The file's images as poppler extracts them: the page's grey per pixel (poppler writes it as PGM or PPM) and the
 * watermark's stencils (PBM, rows of bits).
 */
function images(file: string): { page: Uint8Array; stencils: Buffer[] } {
  const dir = mkdtempSync(path.join(tmp, 'img-'));
  execFileSync('pdfimages', [file, path.join(dir, 'i')]);
  const files = readdirSync(dir).sort();
  /** The last `rowBytes`×HEIGHT bytes: the body after the netpbm header. */
  const body = (name: string, rowBytes: number) => {
    const bytes = readFileSync(path.join(dir, name));
    return bytes.subarray(bytes.length - rowBytes * HEIGHT);
  };
  const pages = files.filter((f) => /\.p[gp]m$/.test(f));
  expect(pages).toHaveLength(1);
  const channels = pages[0]!.endsWith('.ppm') ? 3 : 1;
  const pixels = body(pages[0]!, WIDTH * channels);
  const page = new Uint8Array(WIDTH * HEIGHT).map((_, i) => pixels[i * channels]!);
  const stencils = files.filter((f) => f.endsWith('.pbm')).map((f) => body(f, Math.ceil(WIDTH / 8)));
  return { page, stencils };
}

/** Median over the rows of the mean distance in pixels between the starts of successive runs of ink along a row. */
function rowPeriod(ink: (x: number, y: number) => boolean): number {
  const periods: number[] = [];
  for (let y = 0; y < HEIGHT; y++) {
    const starts: number[] = [];
    for (let x = 1; x < WIDTH; x++) if (ink(x, y) && !ink(x - 1, y)) starts.push(x);
    if (starts.length > 3) periods.push((starts.at(-1)! - starts[0]!) / (starts.length - 1));
  }
  expect(periods.length).toBeGreaterThan(0);
  return periods.sort((a, b) => a - b)[periods.length >> 1]!;
}

describe('PDF worker, screentone page', () => {
  for (const dpi of [350, 600]) {
    it(`screens the page at ${dpi} dpi / ${LPI} lpi = ${dpi / LPI} px a dot, the watermark on its dots`, async () => {
      const { page, stencils } = images(await screenedPdf(dpi));
      const pageInk = (x: number, y: number) => page[y * WIDTH + x] === 0;
      // At 0° the dots of a mid grey lie in rows and columns a cell apart.
      expect(rowPeriod(pageInk)).toBeCloseTo(dpi / LPI, 1);
      // The mark's dots are the same screen's: dots of a lighter grey (black, on paper) lie inside the page's
      // mid-grey dots, the holes of a darker grey (white, on ink) inside its paper. A screen of another ruling
      // would cross them.
      const stride = Math.ceil(WIDTH / 8);
      const mask = watermarkMask(WIDTH, HEIGHT);
      expect(stencils).toHaveLength(2);
      const [black, white] = stencils.map(
        (bits) => (x: number, y: number) => (bits[y * stride + (x >> 3)]! & (0x80 >> (x & 7))) !== 0,
      );
      let marked = 0;
      for (let y = 0; y < HEIGHT; y++) {
        for (let x = 0; x < WIDTH; x++) {
          if (!black!(x, y) && !white!(x, y)) continue;
          marked++;
          expect(mask[y * WIDTH + x], `(${x}, ${y}) is marked`).toBe(1);
          if (black!(x, y)) expect(pageInk(x, y), `black mark dot at (${x}, ${y}) on a page dot`).toBe(true);
          if (white!(x, y)) expect(pageInk(x, y), `white mark hole at (${x}, ${y}) on the page's paper`).toBe(false);
        }
      }
      expect(marked).toBeGreaterThan(500);
    });
  }
});

describe('PDF worker, memory', () => {
  // Detaching them (transfer(0)) looked like freeing them at once, and raised the chapter's peak in Chromium from 204
  // to 320 MB: the bytes stay until the wrapper is collected, and V8, no longer counting them, collects later
  // (docs/how-it-works/chapter-memory.md).
  it('leaves a written page’s rasters to the collector: it never detaches them', async () => {
    const replies: WorkerReply[] = [];
    const reply = (m: WorkerReply) => void replies.push(m);
    const tone = { kind: 'colour' } as const;
    const options = { title: 'T', readingOrder: 'LEFT_TO_RIGHT', dpi: 350, bleedPx: 0 } as const;
    await handlePdf({ type: 'pdfStart', options, tone, fileName: 't.pdf' }, reply);
    const page = greyPage();
    // Node 20 has no ArrayBuffer.prototype.transfer (browsers have): stand one in on this buffer, to see a detach.
    const buffer = page.rasters[0]![1].data.buffer as ArrayBuffer & { transfer?: (n: number) => ArrayBuffer };
    const detached: number[] = [];
    buffer.transfer = (n) => {
      detached.push(n);
      return new ArrayBuffer(n);
    };
    await handlePdf({ type: 'pdfPage', page: { ...page, fileName: 'p1' }, texts: [] }, reply);
    expect(detached).toEqual([]);
    await handlePdf({ type: 'pdfFinish' }, reply);
    // The page is in the file.
    const last = replies.at(-1);
    if (last?.type !== 'blob') throw new Error(`no PDF: ${JSON.stringify(last)}`);
    const file = path.join(tmp, 'freed.pdf');
    writeFileSync(file, new Uint8Array(await last.blob.arrayBuffer()));
    expect(images(file).page.every((v) => Math.abs(v - 128) <= 1)).toBe(true);
  });
});
