// Export and import against the real server: a comic page with panels, a clipped and adjusted image, a speech bubble
// and a hidden image becomes a PNG (watermarked for the free plan only) and a layered PSD that ag-psd and
// ImageMagick read; PSD files made by ImageMagick and by ag-psd come back in as layers with a report of what
// changed; a whole comic goes out as a zip of PSDs behind a progress bar, in Japanese.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Route, Worker } from 'playwright-core';
import { EXPORT_WORKER_IDLE_MS } from '@koma/domain';
import { readPsd, writePsdUint8Array, type Layer as PsdLayer } from 'ag-psd';
import { unzipSync } from 'fflate';
import { PDFDocument, PDFName } from 'pdf-lib';
import sharp from 'sharp';
import { createRaster, ensurePsdPixels, watermarkMask } from '@koma/editor';
import { openPage, screenshot, type PageProblems } from '../support/browser.ts';
import { realErrors, signInWithKeyboard, signUp, uniqueEmail } from '../support/flows.ts';
import { ARTIFACTS_DIR, REPO_ROOT } from '../support/paths.ts';
import { setPlan } from '../support/seed.ts';
import { useServerAndBrowser } from '../support/suite.ts';
import { toScreen } from '../support/editor-page.ts';
import { canvasPixel } from '../support/pixels.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'koma-export-e2e-'));
/** For what goes through the worker and the server (import, upload, export), on a shared and busy machine. */
const SLOW = { timeout: 30_000 };

const suite = useServerAndBrowser();

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

interface Layer {
  id: string;
  type: string;
  name: string;
  visible: boolean;
  clipTarget: string | null;
  transform: { x: number; y: number; size: { width: number; height: number } };
  data: any;
}

/** The open page's layers in drawing order (read through the debug hook the editor screen sets). */
async function layers(page: Page): Promise<Layer[]> {
  return page.evaluate(() => {
    const s = (window as any).__koma;
    const doc = s.editor.doc;
    return doc.layers[s.activeRoot()].children.map((id: string) => ({ id, ...doc.layers[id] }));
  });
}

/** Drops files made in the page (a PNG of one colour, or bytes given here) onto the canvas at a canvas point. */
async function drop(
  page: Page,
  at: { x: number; y: number },
  file: { name: string; color?: string; bytes?: Uint8Array },
  /** Alt held: the picture keeps its own size instead of being fitted into the panel under it. */
  alt = false,
): Promise<void> {
  const box = (await page.getByTestId('canvas').boundingBox())!;
  const p = await toScreen(page, at.x, at.y);
  await page.evaluate(
    async ([cx, cy, name, color, bytes, altKey]) => {
      let blob: Blob;
      if (bytes) blob = new Blob([new Uint8Array(bytes)]);
      else {
        const c = document.createElement('canvas');
        c.width = 400;
        c.height = 300;
        const g = c.getContext('2d')!;
        g.fillStyle = color!;
        g.fillRect(0, 0, 400, 300);
        blob = await new Promise<Blob>((r) => c.toBlob((b) => r(b!), 'image/png'));
      }
      const transfer = new DataTransfer();
      transfer.items.add(new File([blob], name, { type: bytes ? '' : 'image/png' }));
      const target = document.querySelector('[data-testid=canvas]')!;
      const rect = target.getBoundingClientRect();
      const init = { dataTransfer: transfer, clientX: rect.left + cx, clientY: rect.top + cy, altKey, bubbles: true };
      target.dispatchEvent(new DragEvent('dragover', { ...init, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { ...init, cancelable: true }));
    },
    [p.x - box.x, p.y - box.y, file.name, file.color ?? null, file.bytes ? [...file.bytes] : null, alt] as const,
  );
}

/** Starts the chosen export in the open dialog and returns the downloaded file once the dialog is idle again. */
async function exportFile(
  page: Page,
  format: 'png' | 'psd' | 'psdPages' | 'pngPages' | 'cbz' | 'pdf' | 'webtoon',
): Promise<{ name: string; file: string; bytes: Buffer }> {
  await page.getByTestId(`export-format-${format}`).check();
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 90_000 }),
    page.getByTestId('export-start').click(),
  ]);
  const file = path.join(tmp, `${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(file);
  await expect.poll(() => page.getByTestId('export-progress').count(), SLOW).toBe(0);
  expect(await page.getByTestId('export-error').count()).toBe(0);
  return { name: download.suggestedFilename(), file, bytes: readFileSync(file) };
}

async function rgba(bytes: Buffer): Promise<{ width: number; height: number; data: Buffer }> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

const pixel = (
  img: { width: number; data: ArrayLike<number> & { subarray(a: number, b: number): Iterable<number> } },
  x: number,
  y: number,
) => {
  const i = (Math.floor(y) * img.width + Math.floor(x)) * 4;
  return [...img.data.subarray(i, i + 4)];
};

const names = (list: readonly PsdLayer[] | undefined) => (list ?? []).map((l) => l.name);

function find(list: readonly PsdLayer[] | undefined, name: string): PsdLayer {
  const hit = (list ?? []).find((l) => l.name === name);
  if (!hit) throw new Error(`No layer ${name} in ${names(list).join(', ')}`);
  return hit;
}

/** Raster layers with pixels, as ImageMagick lists them (groups are not listed). */
const rasterCount = (list: readonly PsdLayer[] | undefined): number =>
  (list ?? []).reduce(
    (n, l) => n + (l.children ? rasterCount(l.children) : l.right! - l.left! > 0 && l.bottom! - l.top! > 0 ? 1 : 0),
    0,
  );

const centre = (l: Layer) => ({
  x: l.transform.x + l.transform.size.width / 2,
  y: l.transform.y + l.transform.size.height / 2,
});

// One comic page built by the first test and exported by the next ones (tests in a file run in order).
let context: BrowserContext;
let page: Page;
let problems: PageProblems;
let email: string;
let built: { image: Layer; panel: Layer; text: Layer; hidden: Layer; onCanvas: number[] };
let comicPath: string;

describe('exporting a comic page', () => {
  it('builds a page: three panels, an image clipped to one and brightened, a speech bubble, a hidden image', async () => {
    ({ context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    }));
    email = uniqueEmail('export');
    await signUp(page, email);
    await page.getByRole('button', { name: /New comic/ }).click();
    await page.waitForURL(/\/editor\/[^/]+$/);
    comicPath = new URL(page.url()).pathname;
    await page.waitForSelector('[data-testid=canvas] canvas');
    await page.getByTestId('tab-panel_presets').click();
    await page.getByTestId('preset-three-tiers').click();
    await expect.poll(async () => (await layers(page)).filter((l) => l.type === 'PANEL').length).toBe(3);

    // A mid-grey image over the top panel of the list, clipped to it from the layer list's Clip to panel.
    const panel = (await layers(page)).at(-1)!;
    expect(panel.type).toBe('PANEL');
    await drop(page, centre(panel), { name: 'grey.png', color: 'rgb(100, 100, 100)' }, true);
    await expect.poll(async () => (await layers(page)).filter((l) => l.type === 'IMAGE').length).toBe(1);
    let image = (await layers(page)).at(-1)!;
    await page.locator(`[data-layer-id="${image.id}"]`).click();
    // Clip is in the row's menu (issue 16: the row keeps its width for the name).
    await page.locator(`[data-layer-id="${image.id}"]`).getByTestId('layer-menu').click();
    await page.getByTestId('layer-menu-clip-panel').click();
    await expect.poll(async () => (await layers(page)).find((l) => l.id === image.id)!.clipTarget).toBe(panel.id);

    // Exposure +1 doubles it: the canvas and every export show 200, not 100.
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('filter-exposure').fill('1');
    await page.getByTestId('filter-exposure').blur();
    await expect
      .poll(async () => (await layers(page)).find((l) => l.id === image.id)!.data.filterParams.exposure)
      .toBe(1);

    await page.getByTestId('add-text').click();
    await expect.poll(async () => (await layers(page)).filter((l) => l.type === 'TEXT').length).toBe(1);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('text-content').fill('Hello there');
    await page.getByTestId('text-content').blur();
    await expect.poll(async () => (await layers(page)).find((l) => l.type === 'TEXT')!.data.text).toBe('Hello there');

    // A second image, hidden from the layer list.
    const bottom = (await layers(page)).filter((l) => l.type === 'PANEL')[0]!;
    await drop(page, centre(bottom), { name: 'hidden.png', color: '#0000ff' }, true);
    await expect.poll(async () => (await layers(page)).filter((l) => l.type === 'IMAGE').length).toBe(2);
    const hiddenId = (await layers(page)).at(-1)!.id;
    await page.locator(`[data-layer-id="${hiddenId}"]`).getByTestId('toggle-visibility').click();
    await expect.poll(async () => (await layers(page)).find((l) => l.id === hiddenId)!.visible).toBe(false);

    const all = await layers(page);
    image = all.find((l) => l.id === image.id)!;
    const text = all.find((l) => l.type === 'TEXT')!;
    // The pixel checked below is the image's centre, which the bubble must not cover.
    const c = centre(image);
    // The canvas draws the adjusted image with its WebGL filter.
    await expect.poll(async () => (await canvasPixel(page, c.x, c.y))[0]!, SLOW).toBeGreaterThan(150);
    built = {
      image,
      panel,
      text,
      hidden: all.find((l) => l.id === hiddenId)!,
      onCanvas: await canvasPixel(page, c.x, c.y),
    };
    const t = text.transform;
    expect(c.x >= t.x && c.x <= t.x + t.size.width && c.y >= t.y && c.y <= t.y + t.size.height).toBe(false);
    await screenshot(page, 'export-page');
  });

  it('exports a PNG of the page with the adjustments, watermarked for the free plan and not for a subscriber', async () => {
    await page.getByTestId('export-open').click();
    const free = await exportFile(page, 'png');
    expect(free.name).toMatch(/ - page 1\.png$/);
    expect(execFileSync('identify', [free.file], { encoding: 'utf8' })).toMatch(/PNG 1700x2400 1700x2400\+0\+0 8-bit/);
    const freePixels = await rgba(free.bytes);
    expect([freePixels.width, freePixels.height]).toEqual([1700, 2400]);

    expect(await page.locator('.export-dialog__note').count()).toBe(1);
    setPlan(suite.server, email, 'subscriber');
    const paid = await rgba((await exportFile(page, 'png')).bytes);
    // The note follows the server's plan, not the one the page loaded with.
    expect(await page.locator('.export-dialog__note').count()).toBe(0);
    // Not blank: the white page, the black border on the panel's top edge, and the brightened image.
    const c = centre(built.image);
    expect(pixel(paid, 3, 3)).toEqual([255, 255, 255, 255]);
    expect(pixel(paid, c.x, built.panel.transform.y)).toEqual([0, 0, 0, 255]);
    const shown = pixel(paid, c.x, c.y);
    expect(shown[3]).toBe(255);
    for (const channel of shown.slice(0, 3)) expect(Math.abs(channel - 200)).toBeLessThanOrEqual(1);
    // As the canvas shows it: the export's CPU port of the filter agrees with the shader.
    built.onCanvas.slice(0, 3).forEach((channel, i) => expect(Math.abs(channel - shown[i]!)).toBeLessThanOrEqual(2));
    // The hidden image is not in the picture.
    const h = centre(built.hidden);
    expect(pixel(paid, h.x, h.y).slice(0, 3)).not.toEqual([0, 0, 255]);

    // The two files differ exactly where the watermark's diagonal text runs, over the whole page (issue 17).
    const mask = watermarkMask(1700, 2400);
    let off = 0;
    const quarters = [0, 0, 0, 0];
    for (let y = 0; y < 2400; y++) {
      for (let x = 0; x < 1700; x++) {
        const i = (y * 1700 + x) * 4;
        if (freePixels.data.readUInt32BE(i) === paid.data.readUInt32BE(i)) continue;
        if (mask[y * 1700 + x]) quarters[(x < 850 ? 0 : 1) + (y < 1200 ? 0 : 2)]! += 1;
        else off++;
      }
    }
    expect(off).toBe(0);
    for (const n of quarters) expect(n).toBeGreaterThan(10_000);
  });

  it('exports a layered PSD: a group per panel in reading order, text, the hidden layer hidden, 1700×2400', async () => {
    const psd = await exportFile(page, 'psd');
    expect(psd.name).toMatch(/ - page 1\.psd$/);
    ensurePsdPixels();
    const doc = readPsd(psd.bytes, { useImageData: true, skipThumbnail: true });
    expect([doc.width, doc.height, doc.bitsPerChannel]).toEqual([1700, 2400, 8]);
    const panels = (await layers(page)).filter((l) => l.type === 'PANEL');
    const numberOf = (p: Layer) => p.data.position as number;
    // Panel 1 is the top group, so the Layers panel reads top-down in reading order; a subscriber has no watermark.
    expect(names(doc.children)).toEqual([
      'Background',
      'Panel 3',
      'Panel 2',
      'Panel 1',
      `${built.text.name} background`,
      built.text.name,
      built.hidden.name,
    ]);
    for (const p of panels) {
      const area = find(find(doc.children, `Panel ${numberOf(p)}`).children, `Panel ${numberOf(p)} area`);
      expect([area.left, area.top]).toEqual([Math.floor(p.transform.x), Math.floor(p.transform.y)]);
    }
    const group = find(doc.children, `Panel ${numberOf(built.panel)}`);
    expect(names(group.children)).toEqual([
      `Panel ${numberOf(built.panel)} area`,
      built.image.name,
      `Panel ${numberOf(built.panel)} border`,
    ]);
    const image = find(group.children, built.image.name);
    expect(image.clipping).toBe(true);
    // Its pixels carry the adjustment too.
    const c = centre(built.image);
    const inLayer = pixel(image.imageData!, c.x - image.left!, c.y - image.top!);
    for (const channel of inLayer.slice(0, 3)) expect(Math.abs(channel - 200)).toBeLessThanOrEqual(1);
    const text = find(doc.children, built.text.name);
    expect(text.text?.text).toBe('Hello there');
    expect(find(doc.children, built.hidden.name).hidden).toBe(true);
    expect(find(doc.children, 'Panel 1').hidden).toBeFalsy();

    const listed = execFileSync('identify', [psd.file], { encoding: 'utf8' }).trim().split('\n');
    expect(listed[0]).toMatch(/PSD 1700x2400 1700x2400\+0\+0 8-bit sRGB/);
    expect(listed).toHaveLength(1 + rasterCount(doc.children));
    // The background, each panel's area and border, the image, the bubble, its text and the hidden image.
    expect(rasterCount(doc.children)).toBe(11);
  });

  it('exports every page as a CBZ with ComicInfo.xml for a right-to-left book, and as a zip of PNGs', async () => {
    setPlan(suite.server, email, 'free');
    await page.getByTestId('export-close').click();
    await page.getByTestId('tab-page').click();
    await page.getByTestId('reading-order-RIGHT_TO_LEFT').check();
    await page.getByTestId('add-page').click();
    await expect.poll(() => page.getByTestId('page-thumb').count()).toBe(2);
    await page.getByTestId('page-thumb').first().click();
    await page.getByTestId('export-open').click();
    const single = await rgba((await exportFile(page, 'png')).bytes);

    const cbz = await exportFile(page, 'cbz');
    expect(cbz.name).toMatch(/\.cbz$/);
    const book = unzipSync(cbz.bytes);
    expect(Object.keys(book)).toEqual(['001.png', '002.png', 'ComicInfo.xml']);
    const info = new TextDecoder().decode(book['ComicInfo.xml']);
    expect(info).toContain('<PageCount>2</PageCount>');
    expect(info).toContain('<Manga>YesAndRightToLeft</Manga>');
    expect(info).toContain(`ImageSize="${book['001.png']!.length}" ImageWidth="1700" ImageHeight="2400"`);
    // Page 1 of the book is the very PNG of page 1, watermark included on the free plan.
    const first = await rgba(Buffer.from(book['001.png']!));
    expect([first.width, first.height]).toEqual([1700, 2400]);
    expect(first.data.equals(single.data)).toBe(true);
    const second = await rgba(Buffer.from(book['002.png']!));
    const c = centre(built.image);
    expect(pixel(second, c.x, c.y)).not.toEqual(pixel(first, c.x, c.y));

    const zip = await exportFile(page, 'pngPages');
    expect(zip.name).toMatch(/\.zip$/);
    const pngs = Object.keys(unzipSync(zip.bytes));
    expect(pngs).toHaveLength(2);
    pngs.forEach((name, i) => expect(name).toMatch(new RegExp(` - page ${i + 1}\\.png$`)));
    setPlan(suite.server, email, 'subscriber');
  });

  it('exports every page as one PDF: trim and bleed boxes, right-to-left for viewers, crop marks on request', async () => {
    setPlan(suite.server, email, 'free');
    const single = await rgba((await exportFile(page, 'png')).bytes);
    const pdf = await exportFile(page, 'pdf');
    expect(pdf.name).toMatch(/\.pdf$/);
    const doc = await PDFDocument.load(pdf.bytes);
    expect(doc.getPageCount()).toBe(2);
    expect(String(doc.catalog.lookup(PDFName.of('ViewerPreferences')))).toContain('/Direction /R2L');
    const info = execFileSync('pdfinfo', ['-box', '-f', '1', '-l', '2', pdf.file], { encoding: 'utf8' });
    // 1700×2400 px at 350 dpi: 349.71 × 493.71 pt, no bleed, so trim = bleed = media.
    expect(info).toMatch(/Page\s+1 TrimBox:\s+0\.00\s+0\.00\s+349\.71\s+493\.71/);
    expect(info).toMatch(/Page\s+2 BleedBox:\s+0\.00\s+0\.00\s+349\.71\s+493\.71/);
    // Page 1 rendered back by poppler at 350 dpi is the PNG of page 1, watermark included.
    execFileSync('pdftoppm', [
      '-r',
      '350',
      '-f',
      '1',
      '-l',
      '1',
      '-png',
      '-singlefile',
      pdf.file,
      path.join(tmp, 'p1'),
    ]);
    const rendered = await rgba(readFileSync(path.join(tmp, 'p1.png')));
    expect([rendered.width, rendered.height]).toEqual([1700, 2400]);
    const c = centre(built.image);
    for (const [x, y] of [
      [c.x, c.y],
      [3, 3],
      [1650, 2350],
    ] as const) {
      pixel(rendered, x, y)
        .slice(0, 3)
        .forEach((v, i) => expect(Math.abs(v - pixel(single, x, y)[i]!)).toBeLessThanOrEqual(3));
    }

    // Chosen pages: a range past the chapter is refused in words, nothing downloaded; page 2 alone is one page.
    await page.getByTestId('export-pages').fill('1, 3');
    const downloads: string[] = [];
    const onDownload = (d: { suggestedFilename(): string }) => downloads.push(d.suggestedFilename());
    page.on('download', onDownload);
    await page.getByTestId('export-start').click();
    await expect(page.getByTestId('export-error').innerText()).resolves.toBe(
      'Pages: page 3 is past the last page (2).',
    );
    expect(await page.getByTestId('export-pages').getAttribute('aria-invalid')).toBe('true');
    page.off('download', onDownload);
    expect(downloads).toEqual([]);
    await page.getByTestId('export-pages').fill('2');
    const second = await exportFile(page, 'pdf');
    expect((await PDFDocument.load(second.bytes)).getPageCount()).toBe(1);
    await page.getByTestId('export-pages').fill('');

    await page.getByTestId('export-crop-marks').check();
    const marked = await exportFile(page, 'pdf');
    const boxes = execFileSync('pdfinfo', ['-box', marked.file], { encoding: 'utf8' });
    expect(boxes).toMatch(/TrimBox:\s+23\.00\s+23\.00\s+372\.71\s+516\.71/);
    expect(boxes).toMatch(/MediaBox:\s+0\.00\s+0\.00\s+395\.71\s+539\.71/);

    // For a one-ink press: the same page in black and white screentone dots that keep the grey's value.
    await page.getByTestId('export-crop-marks').uncheck();
    await page.getByTestId('export-tone').selectOption('screentone');
    // The screentone option is a sentence: its select must still end inside the dialog.
    const inside = await page.evaluate(() => {
      const dialog = document.querySelector('.export-dialog')!.getBoundingClientRect();
      const select = document.querySelector('[data-testid=export-tone]')!.getBoundingClientRect();
      return select.right <= dialog.right;
    });
    expect(inside).toBe(true);
    // On a phone the dialog's form fits its width too (a fieldset is as wide as its content unless told).
    const desktop = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => {
      const form = document.querySelector('.export-dialog')!;
      const edge = Math.min(form.parentElement!.getBoundingClientRect().right, window.innerWidth);
      return Math.max(...[form, ...form.querySelectorAll('*')].map((e) => e.getBoundingClientRect().right - edge));
    });
    await page.setViewportSize(desktop);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByTestId('export-lpi').fill('5');
    await page.getByTestId('export-start').click();
    await expect(page.getByTestId('export-error').innerText()).resolves.toContain('Lines per inch');
    await page.getByTestId('export-lpi').fill('60');
    const toned = await exportFile(page, 'pdf');
    execFileSync('pdftoppm', [
      '-r',
      '350',
      '-f',
      '1',
      '-l',
      '1',
      '-png',
      '-singlefile',
      toned.file,
      path.join(tmp, 't1'),
    ]);
    const dots = await rgba(readFileSync(path.join(tmp, 't1.png')));
    let ink = 0;
    let between = 0;
    for (let y = Math.round(c.y) - 60; y < Math.round(c.y) + 60; y++) {
      for (let x = Math.round(c.x) - 60; x < Math.round(c.x) + 60; x++) {
        const v = pixel(dots, x, y)[0]!;
        if (v < 40) ink++;
        else if (v <= 215) between++;
      }
    }
    // The brightened image is grey 200: 1 − 200/255 of the area in ink, and nothing but black and white.
    expect(between / 14400).toBeLessThan(0.02);
    expect(Math.abs(ink / 14400 - (1 - 200 / 255))).toBeLessThan(0.04);
    await page.getByTestId('export-tone').selectOption('colour');
    setPlan(suite.server, email, 'subscriber');
  });

  it('exports the chapter as webtoon slices 800 px wide, cut in gutters and margins, not through panels', async () => {
    await page.getByTestId('export-format-webtoon').check();
    // A height the dialog refuses is named, and nothing starts.
    await page.getByTestId('export-slice-height').fill('50');
    await page.getByTestId('export-start').click();
    await expect(page.getByTestId('export-error').innerText()).resolves.toContain('Slice height');
    expect(await page.getByTestId('export-progress').count()).toBe(0);
    await page.getByTestId('export-slice-height').fill('1200');
    await page.getByTestId('export-slice-type').selectOption('png');
    await screenshot(page, 'export-webtoon-dialog');
    const strip = await exportFile(page, 'webtoon');
    // Kept beside the screenshots, to be looked at.
    writeFileSync(path.join(ARTIFACTS_DIR, 'export-webtoon.zip'), strip.bytes);
    const slices = unzipSync(strip.bytes);
    const names = Object.keys(slices);
    names.forEach((name, i) => expect(name).toMatch(new RegExp(` ${String(i + 1).padStart(2, '0')}\\.png$`)));
    const sizes = await Promise.all(names.map(async (n) => sharp(Buffer.from(slices[n]!)).metadata()));
    for (const m of sizes) {
      expect(m.width).toBe(800);
      expect(m.height).toBeLessThanOrEqual(1200);
    }
    // Two pages of 2400 at 800/1700: 2258 px of strip in all.
    expect(sizes.reduce((sum, m) => sum + m.height, 0)).toBe(2 * Math.round((2400 * 800) / 1700));
    // No cut crosses a panel of either page (page 1's three tiers, the new page's full-page panel).
    const scale = 800 / 1700;
    const pageHeight = Math.round(2400 * scale);
    let y = 0;
    const cuts = sizes.slice(0, -1).map((m) => (y += m.height));
    const panels: { page: number; ys: number[] }[] = await page.evaluate(() => {
      const doc = (window as any).__koma.editor.doc;
      return doc.pages.flatMap((p: { rootId: string }, i: number) =>
        doc.layers[p.rootId].children
          .map((id: string) => doc.layers[id])
          .filter((l: any) => l.type === 'PANEL')
          .map((l: any) => ({ page: i, ys: l.data.vertices.map((v: { y: number }) => v.y) })),
      );
    });
    expect(panels.filter((p) => p.page === 0)).toHaveLength(3);
    for (const p of panels) {
      const top = p.page * pageHeight + Math.min(...p.ys) * scale;
      const bottom = p.page * pageHeight + Math.max(...p.ys) * scale;
      for (const cut of cuts) expect(cut <= top + 1 || cut >= bottom - 1).toBe(true);
    }
    expect(await page.getByTestId('export-notice').count()).toBe(0);
  });

  it('cancels a chapter export from the progress bar: the worker stops and nothing is downloaded', async () => {
    // Hold the worker's script back so that the export is surely under way when Cancel is pressed.
    const hold = async (route: Route) => {
      await new Promise((r) => setTimeout(r, 3000));
      await route.continue().catch(() => undefined);
    };
    await page.route('**/psd.worker*', hold);
    let downloads = 0;
    const count = () => downloads++;
    page.on('download', count);
    try {
      await page.getByTestId('export-format-pdf').check();
      await page.getByTestId('export-start').click();
      await page.getByTestId('export-cancel').click();
      await expect.poll(() => page.getByTestId('export-notice').innerText(), SLOW).toContain('Export cancelled');
      expect(await page.getByTestId('export-progress').count()).toBe(0);
      expect(await page.getByTestId('export-error').count()).toBe(0);
      await page.waitForTimeout(3500);
      expect(downloads).toBe(0);
    } finally {
      page.off('download', count);
      await page.unroute('**/psd.worker*', hold);
    }
    // The dialog works again at once.
    expect((await exportFile(page, 'pdf')).name).toMatch(/\.pdf$/);
  });

  it('imports PSD files through the dialog and by dropping, and shows what it skipped or changed', async () => {
    const fixture = path.join(REPO_ROOT, 'packages/editor/test/export/fixtures/imagemagick-layers.psd');
    const before = (await layers(page)).length;
    await page.getByTestId('import-psd-input').setInputFiles(fixture);
    await expect.poll(() => page.getByTestId('import-report').innerText(), SLOW).toContain('3 layers imported.');
    let now = await layers(page);
    expect(now.slice(before).map((l) => [l.type, l.name, l.transform])).toEqual([
      ['IMAGE', 'Red', { x: 0, y: 0, size: { width: 64, height: 48 } }],
      ['IMAGE', 'Blue square', { x: 16, y: 8, size: { width: 32, height: 32 } }],
      ['IMAGE', 'Half green', { x: 4, y: 30, size: { width: 20, height: 10 } }],
    ]);
    expect(await page.getByTestId('import-report').innerText()).not.toContain('Not imported');

    // A file with what the editor cannot keep: an adjustment layer, an empty layer, a screen blend, a hidden group.
    ensurePsdPixels();
    const solid = (w: number, h: number) => createRaster(w, h, [10, 20, 30, 255]);
    const made = path.join(tmp, 'made-by-ag-psd.psd');
    writeFileSync(
      made,
      writePsdUint8Array({
        width: 40,
        height: 30,
        children: [
          { name: 'Base', left: 0, top: 0, right: 40, bottom: 30, imageData: solid(40, 30) },
          {
            name: 'Characters',
            hidden: true,
            children: [
              { name: 'Hero', left: 5, top: 6, right: 15, bottom: 16, imageData: solid(10, 10) },
              { name: 'Nothing', left: 0, top: 0 },
            ],
          },
          { name: 'Levels', adjustment: { type: 'brightness/contrast', brightness: 10, contrast: 0 } },
          { name: 'Glow', left: 1, top: 1, right: 3, bottom: 3, blendMode: 'screen', imageData: solid(2, 2) },
        ],
      }),
    );
    const count = (await layers(page)).length;
    await page.getByTestId('import-psd-input').setInputFiles(made);
    const report = page.getByTestId('import-report');
    await expect.poll(() => report.innerText(), SLOW).toContain('3 layers imported.');
    const shown = await report.innerText();
    expect(shown).toContain('Not imported:');
    expect(shown).toContain('Characters / Nothing: empty layer');
    expect(shown).toContain('Levels: adjustment layer (brightness/contrast) has no pixels of its own');
    expect(shown).toContain('Imported with changes:');
    expect(shown).toContain('Glow: blend mode “screen” imported as normal');
    now = await layers(page);
    expect(now.slice(count).map((l) => [l.name, l.visible])).toEqual([
      ['Base', true],
      ['Characters / Hero', false],
      ['Glow', true],
    ]);
    await screenshot(page, 'export-import-report');
    // One undo takes the whole import back.
    await page.getByTestId('export-close').click();
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await layers(page)).length).toBe(count);

    // Dropped on the canvas, a PSD is imported layer by layer and the toast says so.
    await drop(page, { x: 850, y: 1200 }, { name: 'dropped.psd', bytes: readFileSync(fixture) });
    await expect.poll(async () => (await layers(page)).length, SLOW).toBe(count + 3);
    await expect.poll(() => page.getByTestId('toast').filter({ hasText: '3 layers imported.' }).count(), SLOW).toBe(1);

    expect(realErrors(problems.errors)).toEqual([]);
    expect(problems.external).toEqual([]);
    await context.close();
  });
});

describe('exporting a whole comic', () => {
  it(
    'shows the progress bar, in Japanese, while every page goes into a zip of PSDs',
    { timeout: 180_000 },
    async () => {
      const ja = await openPage(suite.browser, suite.server.baseUrl, { viewport: { width: 1400, height: 900 } });
      await signUp(ja.page, uniqueEmail('export-ja'));
      await ja.page.getByLabel('Language').selectOption('ja');
      await ja.page.getByRole('button', { name: /新規コミック/ }).click();
      await ja.page.waitForURL(/\/editor\/[^/]+$/);
      await ja.page.waitForSelector('[data-testid=canvas] canvas');
      await ja.page.getByTestId('add-page').click();
      await ja.page.getByTestId('add-page').click();
      await expect.poll(() => ja.page.getByTestId('page-thumb').count()).toBe(3);

      await ja.page.getByTestId('export-open').click();
      await expect.poll(() => ja.page.getByRole('dialog').innerText()).toContain('書き出しと読み込み');
      // Every text the bar shows, from the first paint on.
      await ja.page.evaluate(() => {
        const w = window as unknown as { __stages: string[] };
        w.__stages = [];
        new MutationObserver(() => {
          const bar = document.querySelector('[data-testid=export-progress]');
          const text = bar?.textContent ?? '';
          if (text && w.__stages.at(-1) !== text) w.__stages.push(text);
        }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      });
      await ja.page.getByTestId('export-format-psdPages').check();
      // One export worker for the whole job (each page after the first builds on the pixel buffers of the page
      // before, and no page pays for starting a worker of its own).
      const workers: string[] = [];
      ja.page.on('worker', (w) => workers.push(w.url()));
      const started = Date.now();
      const [download] = await Promise.all([
        ja.page.waitForEvent('download', { timeout: 150_000 }),
        (async () => {
          await ja.page.getByTestId('export-start').click();
          await ja.page.getByTestId('export-progress').waitFor({ state: 'visible' });
          await screenshot(ja.page, 'export-progress-ja');
        })(),
      ]);
      const took = Date.now() - started;
      expect(took).toBeGreaterThan(100);
      const stages = await ja.page.evaluate(() => (window as unknown as { __stages: string[] }).__stages);
      expect(stages.length).toBeGreaterThan(0);
      expect(stages.some((s) => s.includes('ページ 1/3'))).toBe(true);
      // Every stage is worded in Japanese (file names aside).
      expect(stages.filter((s) => !/[\u3040-\u30ff\u4e00-\u9faf]/.test(s))).toEqual([]);

      const file = path.join(tmp, download.suggestedFilename());
      await download.saveAs(file);
      expect(download.suggestedFilename()).toMatch(/\.zip$/);
      const entries = Object.keys(unzipSync(readFileSync(file))).sort();
      expect(entries).toHaveLength(3);
      entries.forEach((name, i) => expect(name).toMatch(new RegExp(` - page ${i + 1}\\.psd$`)));
      expect(workers.filter((url) => url.includes('psd.worker'))).toHaveLength(1);
      expect(realErrors(ja.problems.errors)).toEqual([]);
      await ja.context.close();
    },
  );
});

describe('a picture that does not load', () => {
  it('stops a book export with the names of the layers whose pictures did not load, and downloads nothing', async () => {
    // Another browser (no local copies of the pictures) signed in as the same user, with every stored picture
    // refused by the network: the comic's image layers cannot be drawn.
    const other = await openPage(suite.browser, suite.server.baseUrl, { viewport: { width: 1400, height: 900 } });
    try {
      await other.page.goto('/signin');
      await signInWithKeyboard(other.page, email);
      await other.page.route('**/api/images/**', (route) => route.abort());
      await other.page.goto(comicPath);
      await other.page.waitForSelector('[data-testid=canvas] canvas');
      let downloads = 0;
      other.page.on('download', () => downloads++);
      await other.page.getByTestId('export-open').click();
      await other.page.getByTestId('export-format-cbz').check();
      await other.page.getByTestId('export-start').click();
      await expect
        .poll(
          () =>
            other.page
              .getByTestId('export-error')
              .innerText()
              .catch(() => ''),
          SLOW,
        )
        .toMatch(/^These images did not load, so nothing was exported: /);
      const message = await other.page.getByTestId('export-error').innerText();
      expect(message).toContain(built.image.name);
      // A hidden layer is not in a flattened page: its picture is not waited for, nor named.
      expect(message).not.toContain(built.hidden.name);
      await expect.poll(() => other.page.getByTestId('export-progress').count(), SLOW).toBe(0);
      await screenshot(other.page, 'export-pictures-missing');
      expect(downloads).toBe(0);
      // The loader logs each refused picture and its retries, and the dialog's failure; nothing threw.
      expect(other.problems.errors.filter((e) => e.startsWith('pageerror:'))).toEqual([]);
    } finally {
      await other.context.close();
    }
  });

  it(
    'exports a book whose only picture that does not load belongs to a hidden layer',
    { timeout: 120_000 },
    async () => {
      const other = await openPage(suite.browser, suite.server.baseUrl, { viewport: { width: 1400, height: 900 } });
      try {
        await other.page.goto('/signin');
        await signInWithKeyboard(other.page, email);
        const hidden = built.hidden.data.variations[built.hidden.data.variationsIdx]!.id;
        await other.page.route(`**/api/images/${hidden}**`, (route) => route.abort());
        await other.page.goto(comicPath);
        await other.page.waitForSelector('[data-testid=canvas] canvas');
        await other.page.getByTestId('export-open').click();
        const cbz = await exportFile(other.page, 'cbz');
        expect(cbz.name).toMatch(/\.cbz$/);
        const files = unzipSync(new Uint8Array(cbz.bytes));
        // Every page (an earlier test added a second); on the first, the visible picture is drawn (brightened to 200
        // by its exposure) and the hidden one is not.
        expect(Object.keys(files).filter((n) => n.endsWith('.png'))).toEqual(['001.png', '002.png']);
        const png = await rgba(Buffer.from(files['001.png']!));
        const c = centre(built.image);
        for (const channel of pixel(png, c.x, c.y).slice(0, 3)) expect(Math.abs(channel - 200)).toBeLessThanOrEqual(1);
        const h = centre(built.hidden);
        expect(pixel(png, h.x, h.y).slice(0, 3)).not.toEqual([0, 0, 255]);
        expect(other.problems.errors.filter((e) => e.startsWith('pageerror:'))).toEqual([]);
      } finally {
        await other.context.close();
      }
    },
  );
});

describe('the export worker between exports', () => {
  it(
    'keeps one worker for repeated single-page exports, ends it after the idle time, and replaces it after a cancel',
    { timeout: 240_000 },
    async () => {
      const tab = await openPage(suite.browser, suite.server.baseUrl, { viewport: { width: 1400, height: 900 } });
      const p = tab.page;
      // The page's clock runs as usual, and can be moved on by the idle time without waiting for it.
      await p.clock.install();
      const started: Worker[] = [];
      const closed = new Set<Worker>();
      p.on('worker', (w) => {
        if (!w.url().includes('psd.worker')) return;
        started.push(w);
        w.on('close', () => closed.add(w));
      });
      const alive = () => started.filter((w) => !closed.has(w)).length;
      await signUp(p, uniqueEmail('export-warm'));
      await p.getByRole('button', { name: /New comic/ }).click();
      await p.waitForURL(/\/editor\/[^/]+$/);
      await p.waitForSelector('[data-testid=canvas] canvas');
      await p.getByTestId('tab-panel_presets').click();
      await p.getByTestId('preset-three-tiers').click();
      await p.getByTestId('export-open').click();

      // PSD, PNG, PSD of the same page: one worker, the second PSD built on the buffers of the exports before it,
      // byte for byte the file the first was.
      const first = await exportFile(p, 'psd');
      expect((await exportFile(p, 'png')).name).toMatch(/\.png$/);
      const again = await exportFile(p, 'psd');
      expect(again.bytes.equals(first.bytes)).toBe(true);
      expect(started).toHaveLength(1);
      expect(alive()).toBe(1);

      // Idle for just under the time it is kept: still there; past it: ended.
      await p.clock.fastForward(EXPORT_WORKER_IDLE_MS - 2000);
      await p.waitForTimeout(500);
      expect(alive()).toBe(1);
      await p.clock.fastForward(2500);
      await expect.poll(alive, SLOW).toBe(0);

      // A cancelled export: the new worker's script is held back, so the export is surely under way when Cancel is
      // pressed. Nothing is downloaded, no worker is left behind but the one kept, and the next export works.
      const hold = async (route: Route) => {
        await new Promise((r) => setTimeout(r, 3000));
        await route.continue().catch(() => undefined);
      };
      await p.route('**/psd.worker*', hold);
      let downloads = 0;
      const count = () => downloads++;
      p.on('download', count);
      try {
        await p.getByTestId('export-format-psd').check();
        await p.getByTestId('export-start').click();
        await p.getByTestId('export-cancel').click();
        await expect.poll(() => p.getByTestId('export-notice').innerText(), SLOW).toContain('Export cancelled');
        expect(await p.getByTestId('export-error').count()).toBe(0);
        await p.waitForTimeout(3500);
        expect(downloads).toBe(0);
      } finally {
        p.off('download', count);
        await p.unroute('**/psd.worker*', hold);
      }
      // (A worker ended before its script loaded is never reported to the test, so only the live ones are counted.)
      expect(alive()).toBeLessThanOrEqual(1);
      const after = await exportFile(p, 'psd');
      expect(after.bytes.equals(first.bytes)).toBe(true);
      expect(alive()).toBe(1);
      // Leaving the page lets the idle worker go at once.
      await p.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pagehide')));
      await expect.poll(alive, SLOW).toBe(0);
      expect(realErrors(tab.problems.errors)).toEqual([]);
      await tab.context.close();
    },
  );
});
