/**
 * Chapter benchmark (issue 23, item 6) in headless Chromium against the built app on loopback: a generated 40-page
 * chapter with ten 1024² images per page (400 images, made with sharp once and cached under the temp folder).
 * Measures time to the first page drawn, page switch p50/p95 (open page → all its images decoded and drawn; back to
 * back, each switch also waits for that page's loads, and as a reader turns pages, once the neighbours are in), the JS
 * heap after visiting every page and after a second visit, and the chapter's PDF export (time, and the renderer
 * processes' peak RSS above their level before it) beside a bare pdf-lib write of the same page images (composed by
 * sharp) in this process, in the same run. The bare write stays a write of the same images: the export embeds a
 * picture at its own resolution only when it is shown larger than its pixels (docs/decisions/export.md), and every
 * picture here (1024² in a 830×460 cell) is larger, so the export too writes one page image per page (plus the free
 * plan's watermark, a 1-bit stencil written once for the chapter). Then page 1 alone is exported the same way
 * (the dialog's Pages field): the chapter's peak is also given in units of that one page's, which is what "bounded by
 * a few pages" asks.
 *
 * Knobs: CHAPTER_PAGES (default 40) makes a shorter chapter; CHAPTER_ONLY=pdf skips the page visits and the bare write
 * (the image store then starts from the first page's pictures only, so its numbers are not the full run's), to iterate
 * on the export; CHAPTER_ONLY=switch skips the PDF export and the bare write, to iterate on page switches;
 * CHAPTER_TRACE=file.csv samples the export's memory every 200 ms into that file (renderer RSS, the page's and its
 * workers' JS heaps and ArrayBuffers, through the DevTools protocol) and prints the peaks; CHAPTER_SWITCH_TRACE=1 prints
 * where the first visits' switch time goes (each request's queueing, server time and transfer, each decode);
 * CHAPTER_DUMPS=1 takes Chromium memory-infra dumps during the export and prints the renderer's allocators (malloc,
 * PartitionAlloc's array-buffer partition, V8, shared memory...) at the highest one, for what RSS alone cannot tell.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { execSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';
import { COMIC_PAGE_HEIGHT, COMIC_PAGE_WIDTH } from '@koma/domain';
import { launchBrowser } from '../e2e/support/browser.ts';
import { startServer } from '../e2e/support/server.ts';
import { REPO_ROOT, WEB_DIST } from '../e2e/support/paths.ts';
import { chapterPictures, createChapter, uploadPictures } from '../e2e/support/chapter.ts';
import { median, percentile, printTable } from './stats.ts';
import { allocatorDumps, peakWhile, rendererRss, traceMemory } from './renderer-memory.ts';
import { DECODE_LOG_SCRIPT, printTimelines, readTimeline, type SwitchTimeline } from './switch-trace.ts';

const PAGES = Number(process.env.CHAPTER_PAGES ?? 40);
/**
 * `pdf`: only the PDF export (no page visits, no bare write), to iterate on the export's memory; `switch`: only the
 * page visits (no export, no bare write), to iterate on page switches.
 */
const ONLY = process.env.CHAPTER_ONLY ?? '';
/** `1`: prints where the first visits' switch time goes (requests and decodes, bench/switch-trace.ts). */
const SWITCH_TRACE = process.env.CHAPTER_SWITCH_TRACE === '1';
/** A CSV file for the export's memory every 200 ms (renderer RSS, page and worker heaps and ArrayBuffers). */
const TRACE = process.env.CHAPTER_TRACE ?? '';
/** Set: Chromium memory-infra dumps during the export, the renderer's allocators printed at their peak. */
const DUMPS = process.env.CHAPTER_DUMPS === '1';
const IMAGES_PER_PAGE = 10;
const MB = 1024 * 1024;
/** Switches made after the neighbours' images have arrived, as a reader turns pages. */
const PAUSED_SWITCHES = 10;

/** In the page: opens page `i` and resolves with the ms until its images are all decoded and the stage drawn. */
const SWITCH = (i: number) => `new Promise((resolve) => {
  const session = window.__koma;
  const scene = window.__komaScene;
  const start = performance.now();
  window.__switchStart = start;
  session.openPage(${i});
  const doc = session.editor.doc;
  const root = doc.layers[doc.pages[${i}].rootId];
  const ids = root.children.map((id) => doc.layers[id]).filter((l) => l.type === 'IMAGE')
    .map((l) => l.data.variations[l.data.variationsIdx].id);
  window.__switchIds = ids;
  const check = () => {
    if (scene.images.settled(ids)) {
      scene.flush();
      resolve(performance.now() - start);
    } else requestAnimationFrame(check);
  };
  check();
})`;

if (!existsSync(path.join(WEB_DIST, 'index.html')))
  execSync('npm run build -w @koma/web', { cwd: REPO_ROOT, stdio: 'inherit' });

const load = os.loadavg().map((v) => v.toFixed(2));
const server = await startServer({ env: { UPLOAD_RATE_LIMIT: '100000' } });
const browser = await launchBrowser();
try {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    acceptDownloads: true,
    // The in-page probes are passed as text; the app's CSP (no eval) would refuse them.
    bypassCSP: true,
  });
  if (SWITCH_TRACE) await context.addInitScript(DECODE_LOG_SCRIPT);
  const page = await context.newPage();
  // Errors are printed with the request that caused them, so a run's console error is traced to its cause.
  page.on('console', (message) => {
    if (message.type() === 'error') console.log(`page console error: ${message.text()} (${message.location().url})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400)
      console.log(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  await page.goto(`${server.baseUrl}/signup`);
  await page.getByLabel('Email').fill(`chapter-${Date.now()}@example.com`);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL('**/dashboard');

  let t = performance.now();
  const pictures = await chapterPictures(PAGES * IMAGES_PER_PAGE);
  console.log(`pictures ready in ${((performance.now() - t) / 1000).toFixed(1)} s (cached after the first run)`);
  t = performance.now();
  const ids = await uploadPictures(page.request, server.baseUrl, pictures);
  const workspace = await createChapter(page.request, server.baseUrl, ids, {
    pages: PAGES,
    imagesPerPage: IMAGES_PER_PAGE,
  });
  console.log(`uploaded and created in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const cdp = await context.newCDPSession(page);
  const heap = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  };

  const t0 = performance.now();
  await page.goto(`${server.baseUrl}/editor/${workspace}`);
  await page.waitForFunction('window.__komaScene && window.__koma', null, { timeout: 60_000 });
  await page.evaluate(SWITCH(0));
  const firstPage = performance.now() - t0;

  // Every page visited twice back to back, then page turns as a reader makes them.
  const visits = async () => {
    const timelines: SwitchTimeline[] = [];
    const visit = async (trace = false) => {
      const times: number[] = [];
      for (const i of [...Array.from({ length: PAGES - 1 }, (_, p) => p + 1), 0]) {
        times.push(await page.evaluate<number>(SWITCH(i)));
        if (trace) timelines.push(await readTimeline(page, times.at(-1)!));
      }
      return times;
    };
    const firstVisit = await visit(SWITCH_TRACE);
    if (SWITCH_TRACE) printTimelines('First visits: where the time goes (ms from the switch)', timelines);
    const heapFirst = await heap();
    const secondVisit = await visit();
    const heapSecond = await heap();
    const stats = await page.evaluate<{ bytesUsed: number; peakBytes: number; budgetBytes: number }>(
      'window.__komaScene.images.stats()',
    );
    const switches = [...firstVisit, ...secondVisit].sort((a, b) => a - b);
    // A reader's turn: the open page has been looked at long enough for its neighbours' images to arrive (waited on,
    // not slept), then the next page is opened. Back to back above, every switch also waits for the loads.
    const READY = (i: number) => `(() => {
      const doc = window.__koma.editor.doc;
      const ids = [${i} - 1, ${i} + 1].flatMap((p) => doc.pages[p] ? doc.layers[doc.pages[p].rootId].children : [])
        .map((id) => doc.layers[id]).filter((l) => l.type === 'IMAGE')
        .map((l) => l.data.variations[l.data.variationsIdx].id);
      return window.__komaScene.images.settled(ids);
    })()`;
    const paused: number[] = [];
    for (let i = 1; i <= PAUSED_SWITCHES; i++) {
      await page.waitForFunction(READY(i - 1), null, { timeout: 60_000 });
      paused.push(await page.evaluate<number>(SWITCH(i)));
    }
    paused.sort((a, b) => a - b);
    return { switches, heapFirst, heapSecond, stats, paused };
  };
  const visited = ONLY === 'pdf' ? null : await visits();

  // The chapter's PDF through the export dialog, as a user makes it.
  const exportChapter = async () => {
    const before = rendererRss();
    await page.getByTestId('export-open').click();
    await page.getByTestId('export-format-pdf').check();
    const runExport = async () => {
      const start = performance.now();
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 1_800_000 }),
        page.getByTestId('export-start').click(),
      ]);
      const file = await download.path();
      return { ms: performance.now() - start, bytes: file ? readFileSync(file).length : 0 };
    };
    const result = await peakWhile(rendererRss, async () => {
      if (DUMPS) {
        const { value, peaks } = await allocatorDumps(browser, runExport);
        for (const p of peaks) {
          const sizes = Object.entries(p.allocators)
            .filter(([, mb]) => mb >= 1)
            .sort((a, b) => b[1] - a[1])
            .map(([name, mb]) => `${name} ${mb.toFixed(1)}`);
          console.log(`renderer ${p.pid} at its highest dump (${p.total.toFixed(0)} MB): ${sizes.join(', ')}`);
        }
        return value;
      }
      if (!TRACE) return runExport();
      const { value, samples } = await traceMemory(browser, cdp, runExport);
      const columns = ['ms', 'rss', 'mainHeap', 'mainBuffers', 'workerHeap', 'workerBuffers'] as const;
      const mb = (v: number) => (v / MB).toFixed(1);
      const rows = samples.map((x) => columns.map((c) => (c === 'ms' ? String(x.ms) : mb(x[c]))).join(','));
      writeFileSync(
        TRACE,
        [`${columns.join(',')},rssAboveBefore`, ...rows.map((r, i) => `${r},${mb(samples[i]!.rss - before)}`)].join(
          '\n',
        ),
      );
      const peak = (c: (typeof columns)[number]) => mb(Math.max(...samples.map((x) => x[c])));
      console.log(
        `trace: ${samples.length} samples in ${TRACE}; peaks (MB): ${columns
          .slice(1)
          .map((c) => `${c} ${peak(c)}`)
          .join(', ')}`,
      );
      return value;
    });
    // Page 1 alone, after the chapter: the unit the chapter's peak is counted in ("a few pages"). It runs on what
    // the chapter's export left committed, so if anything it measures low and the ratio high.
    await page.getByTestId('export-pages').fill('1');
    const beforeOne = rendererRss();
    const one = await peakWhile(rendererRss, runExport);
    await page.getByTestId('export-pages').fill('');
    return { ...result, before, onePage: one.peak - beforeOne };
  };
  const exported = ONLY === 'switch' ? null : await exportChapter();

  const bareWrite = async () => {
    // The same pages composed by sharp, then written by pdf-lib alone.
    const pagePngs: Buffer[] = [];
    const cell = { width: COMIC_PAGE_WIDTH / 2, height: COMIC_PAGE_HEIGHT / (IMAGES_PER_PAGE / 2) };
    for (let p = 0; p < PAGES; p++) {
      const layers = await Promise.all(
        Array.from({ length: IMAGES_PER_PAGE }, async (_, i) => ({
          input: await sharp(pictures[p * IMAGES_PER_PAGE + i])
            .resize(Math.round(cell.width - 20), Math.round(cell.height - 20), { fit: 'fill' })
            .toBuffer(),
          left: (i % 2) * cell.width + 10,
          top: Math.floor(i / 2) * cell.height + 10,
        })),
      );
      pagePngs.push(
        await sharp({
          create: { width: COMIC_PAGE_WIDTH, height: COMIC_PAGE_HEIGHT, channels: 4, background: '#ffffff' },
        })
          .composite(layers)
          .png()
          .toBuffer(),
      );
    }
    const rssBefore = process.memoryUsage().rss;
    const written = await peakWhile(
      () => process.memoryUsage().rss,
      async () => {
        const start = performance.now();
        const pdf = await PDFDocument.create();
        for (const png of pagePngs) {
          const image = await pdf.embedPng(png);
          pdf.addPage([image.width, image.height]).drawImage(image, { x: 0, y: 0 });
        }
        const bytes = await pdf.save();
        return { ms: performance.now() - start, bytes: bytes.length };
      },
    );
    return { ms: written.value.ms, bytes: written.value.bytes, peak: written.peak - rssBefore };
  };
  const bare = ONLY === 'pdf' || ONLY === 'switch' ? null : await bareWrite();
  const onePage = (COMIC_PAGE_WIDTH * COMIC_PAGE_HEIGHT * 4) / MB;

  const images = await page.evaluate<{ bytesUsed: number; peakBytes: number; budgetBytes: number }>(
    'window.__komaScene.images.stats()',
  );
  const rows = [
    ...(visited
      ? [
          { measure: 'time to first page drawn (ms, from navigation)', value: firstPage, target: '< 2000' },
          { measure: 'page switch back to back p50 (ms)', value: median(visited.switches), target: '' },
          { measure: 'page switch back to back p95 (ms)', value: percentile(visited.switches, 95), target: '< 150' },
          { measure: 'page switch, neighbours loaded, p50 (ms)', value: median(visited.paused), target: '' },
          {
            measure: 'page switch, neighbours loaded, p95 (ms)',
            value: percentile(visited.paused, 95),
            target: '< 150',
          },
          { measure: 'JS heap after visiting every page (MB)', value: visited.heapFirst / MB, target: '< 600' },
          { measure: 'JS heap after a second visit (MB)', value: visited.heapSecond / MB, target: '≤ first visit' },
          {
            measure: 'decoded images held after the visits (MB)',
            value: visited.stats.bytesUsed / MB,
            target: '≤ budget',
          },
        ]
      : []),
    ...(exported
      ? [
          { measure: 'PDF export (ms)', value: exported.value.ms, target: '' },
          ...(bare
            ? [
                { measure: 'bare pdf-lib write of the same pages (ms)', value: bare.ms, target: '' },
                { measure: 'export / bare write', value: exported.value.ms / bare.ms, target: '≤ 1.5' },
              ]
            : []),
          {
            measure: 'PDF size (MB): export / bare',
            value: exported.value.bytes / MB,
            target: bare ? `${(bare.bytes / MB).toFixed(1)}` : '',
          },
          {
            measure: 'export peak renderer RSS above before (MB)',
            value: (exported.peak - exported.before) / MB,
            target: 'PDF + a few pages',
          },
          {
            measure: 'page 1 alone: export peak RSS above before (MB)',
            value: exported.onePage / MB,
            target: '',
          },
          {
            measure: 'chapter export peak / page 1 export peak',
            value: (exported.peak - exported.before) / exported.onePage,
            target: 'a few',
          },
          ...(bare ? [{ measure: 'bare write peak RSS above before (MB)', value: bare.peak / MB, target: '' }] : []),
        ]
      : []),
    { measure: 'one page raw RGBA (MB)', value: onePage, target: '' },
    { measure: 'decoded images held at the end (MB)', value: images.bytesUsed / MB, target: '≤ budget' },
    { measure: 'decoded images peak (MB)', value: images.peakBytes / MB, target: `${images.budgetBytes / MB} budget` },
  ];
  printTable(
    `Chapter: ${PAGES} pages × ${IMAGES_PER_PAGE} images of 1024²${ONLY ? ` (only ${ONLY})` : ''} (load average ${load.join(' ')})`,
    rows,
  );
} finally {
  await browser.close();
  await server.stop();
}
