/**
 * Canvas benchmark in headless Chromium: a comic page with 60 image layers (1024×1024) clipped to panels and 20
 * speech bubbles. Frame time over a scripted 3 s pan and zoom, drawn by Koma's renderer beside a plain Canvas2D loop
 * that draws the same bitmaps with the same clips in the same page; plus time to first draw and memory.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { execSync } from 'node:child_process';
import sharp from 'sharp';
import {
  COMIC_PAGE_HEIGHT,
  COMIC_PAGE_WIDTH,
  LAYOUT_PRESETS,
  createImageLayer,
  createTextLayer,
  createWorkspaceData,
  encodeWorkspaceData,
  layoutPreset,
  createPanelLayer,
  boundsOf,
} from '@koma/domain';
import { launchBrowser } from '../e2e/support/browser.ts';
import { startServer } from '../e2e/support/server.ts';
import { REPO_ROOT, WEB_DIST } from '../e2e/support/paths.ts';
import { printTable, summarize } from './stats.ts';

/** Runs in the page: the same 3 s of views drawn by Koma's renderer and by a plain Canvas2D loop. */
const PAGE_RUN = `(() => {
  const session = window.__koma;
  const scene = window.__komaScene;
  const doc = session.editor.doc;
  const root = doc.layers[session.activeRoot()];
  const layers = root.children.map((id) => doc.layers[id]);
  const host = document.querySelector('[data-testid=canvas]');
  const baseline = document.createElement('canvas');
  baseline.width = host.clientWidth;
  baseline.height = host.clientHeight;
  const g = baseline.getContext('2d');
  const views = (zoomOut) => Array.from({ length: 180 }, (_, i) => {
    const t = i / 180;
    const zoom = zoomOut ? 0.12 + 0.04 * Math.sin(t * Math.PI * 2) : 0.45 + 0.25 * Math.sin(t * Math.PI * 2);
    return { x: 100 - 300 * Math.sin(t * Math.PI * 2), y: 50 - 600 * t * zoom, zoom };
  });
  const polygon = (vertices) => {
    g.beginPath();
    vertices.forEach((v, k) => (k ? g.lineTo(v.x, v.y) : g.moveTo(v.x, v.y)));
    g.closePath();
  };
  const plainFrame = (view) => {
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, baseline.width, baseline.height);
    g.setTransform(view.zoom, 0, 0, view.zoom, view.x, view.y);
    g.fillStyle = '#fff';
    g.fillRect(0, 0, 1700, 2400);
    for (const layer of layers) {
      const t = layer.transform;
      if (layer.type === 'IMAGE') {
        const target = layer.clipTarget ? doc.layers[layer.clipTarget] : null;
        g.save();
        if (target) {
          polygon(target.data.vertices);
          g.clip();
        }
        g.drawImage(scene.images.get(layer.data.variations[0].id), t.x, t.y, t.size.width, t.size.height);
        g.restore();
      } else if (layer.type === 'PANEL') {
        polygon(layer.data.vertices);
        g.lineWidth = 5;
        g.stroke();
      } else if (layer.type === 'TEXT') {
        g.beginPath();
        g.ellipse(t.x + t.size.width / 2, t.y + t.size.height / 2, t.size.width / 2, t.size.height / 2, 0, 0, Math.PI * 2);
        g.fillStyle = '#fff';
        g.fill();
        g.stroke();
        g.fillStyle = '#000';
        g.font = '30px sans-serif';
        g.fillText(layer.data.text, t.x + 30, t.y + t.size.height / 2);
      }
    }
    g.getImageData(0, 0, 1, 1);
  };
  const komaFrame = (view) => {
    session.setView(view);
    scene.flush();
    scene.stage.getLayers()[0].getCanvas()._canvas.getContext('2d').getImageData(0, 0, 1, 1);
  };
  const measure = (frame, list) => list.map((v) => {
    const start = performance.now();
    frame(v);
    return performance.now() - start;
  });
  const out = {};
  for (const mode of ['full', 'zoomed-out']) {
    const list = views(mode === 'zoomed-out');
    measure(komaFrame, list.slice(0, 20));
    measure(plainFrame, list.slice(0, 20));
    out['koma ' + mode] = measure(komaFrame, list);
    out['plain ' + mode] = measure(plainFrame, list);
  }
  return { out, memory: performance.memory ? performance.memory.usedJSHeapSize : 0 };
})()`;

if (!existsSync(path.join(WEB_DIST, 'index.html')))
  execSync('npm run build -w @koma/web', { cwd: REPO_ROOT, stdio: 'inherit' });

const server = await startServer();
const browser = await launchBrowser();
try {
  const page = await browser.newPage({
    viewport: { width: 1400, height: 900 },
    // The in-page probes are passed as text; the app's CSP (no eval) would refuse them.
    bypassCSP: true,
  });
  await page.goto(`${server.baseUrl}/signup`);
  await page.getByLabel('Email').fill(`bench-${Date.now()}@example.com`);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL('**/dashboard');

  // 60 distinct 1024² images, uploaded through the API.
  const imageIds: string[] = [];
  for (let i = 0; i < 60; i++) {
    const png = await sharp({
      create: {
        width: 1024,
        height: 1024,
        channels: 3,
        background: { r: (i * 37) % 256, g: (i * 91) % 256, b: (i * 53) % 256 },
      },
    })
      .composite([
        {
          input: Buffer.from(
            `<svg width="1024" height="1024"><circle cx="512" cy="512" r="${200 + i * 4}" fill="white" opacity="0.5"/></svg>`,
          ),
        },
      ])
      .png()
      .toBuffer();
    const response = await page.request.post(`${server.baseUrl}/api/image`, {
      data: { encoded: png.toString('base64'), fileType: 'png' },
    });
    imageIds.push(((await response.json()) as { id: string }).id);
  }

  let n = 0;
  const ids = () => `b${n++}`;
  const data = createWorkspaceData('COMIC', ids);
  const pageRoot = data.pages[0]!.rootLayer;
  const preset = LAYOUT_PRESETS.find((p) => p.id === 'grid-2x3')!;
  const laid = layoutPreset(preset, { width: COMIC_PAGE_WIDTH, height: COMIC_PAGE_HEIGHT }, 'LEFT_TO_RIGHT');
  const panelIds = laid.map(() => ids());
  pageRoot.children = laid.map((p, i) =>
    createPanelLayer(
      panelIds[i]!,
      { x: 0, y: 0, size: { width: 1, height: 1 } },
      { vertices: p.vertices, position: p.position },
    ),
  );
  for (const panel of pageRoot.children) {
    const box = boundsOf((panel as { data: { vertices: { x: number; y: number }[] } }).data.vertices);
    panel.transform = { x: box.x, y: box.y, size: { width: box.width, height: box.height } };
  }
  imageIds.forEach((imageId, i) => {
    const panel = pageRoot.children[i % 6]!;
    const t = panel.transform;
    const image = createImageLayer(
      ids(),
      { x: t.x - 40 + (i % 5) * 30, y: t.y - 40 + (i % 7) * 20, size: { width: 700, height: 700 } },
      { variations: [{ id: imageId }] },
    );
    pageRoot.children.push(image);
    panel.clippedLayers.push(image.id);
  });
  for (let i = 0; i < 20; i++) {
    pageRoot.children.push(
      createTextLayer(
        ids(),
        { x: 150 + (i % 4) * 360, y: 150 + Math.floor(i / 4) * 430, size: { width: 320, height: 220 } },
        { backgroundType: 'SPEECH_BUBBLE', text: `Line ${i}! Wait for me!`, fontSize: 30 },
      ),
    );
  }
  const created = await page.request.post(`${server.baseUrl}/api/workspace`, {
    data: { name: 'bench', data: encodeWorkspaceData(data), type: 'COMIC' },
  });
  const { id } = (await created.json()) as { id: string };

  const t0 = Date.now();
  await page.goto(`${server.baseUrl}/editor/${id}`);
  // The in-page code is passed as text: tsx would otherwise wrap the functions in helpers the page does not have.
  await page.waitForFunction('window.__komaScene && window.__koma', null, { timeout: 60_000 });
  await page.waitForFunction(
    `(() => {
      const scene = window.__komaScene;
      const doc = window.__koma.editor.doc;
      const images = Object.values(doc.layers).filter((l) => l.type === 'IMAGE');
      return images.length === 60 && images.every((l) => scene.images.get(l.data.variations[0].id));
    })()`,
    null,
    { timeout: 120_000, polling: 100 },
  );
  const firstDraw = await page.evaluate<number>(`(() => {
    const start = performance.now();
    window.__komaScene.flush();
    return performance.now() - start;
  })()`);
  const timeToFirstDraw = Date.now() - t0;
  const result = await page.evaluate<{ out: Record<string, number[]>; memory: number }>(PAGE_RUN);

  const rows = Object.entries(result.out).map(([name, samples]) => {
    const s = summarize(samples);
    return { renderer: name, p50: s.p50, p95: percentile95(samples), frames: s.n };
  });
  printTable('Frame time over a 3 s scripted pan and zoom (ms)', rows);
  const p95 = (name: string) => percentile95(result.out[name]!);
  const p50 = (name: string) => summarize(result.out[name]!).p50;
  printTable('Ratios (Koma / plain Canvas2D, same bitmaps, same page)', [
    { view: 'full detail', p50: p50('koma full') / p50('plain full'), p95: p95('koma full') / p95('plain full') },
    {
      view: 'zoomed out',
      p50: p50('koma zoomed-out') / p50('plain zoomed-out'),
      p95: p95('koma zoomed-out') / p95('plain zoomed-out'),
    },
  ]);
  printTable('Start-up and memory', [
    { measure: 'time to first draw with all 60 images (ms, from navigation)', value: timeToFirstDraw },
    { measure: 'first full draw (ms)', value: firstDraw },
    { measure: 'JS heap after the run (MB)', value: result.memory / 1024 / 1024 },
  ]);
  console.log('\ntargets: full detail within 1.5× of the plain loop; zoomed out faster than it (ratio below 1).');
} finally {
  await browser.close();
  await server.stop();
}

function percentile95(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]!;
}
