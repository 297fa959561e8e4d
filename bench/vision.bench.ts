/**
 * bench:vision — warm time and peak memory of each vision operation at 512 and 1024 px, through the same
 * public functions (and worker threads) the job queue calls. Upscaling is shown beside sharp's lanczos ×2 of the
 * same image in the same run, and its super-resolution PSNR beside an aligned bicubic.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { closeVision, detectFaces, estimatePose, removeBackground, upscale } from '../apps/server/src/vision/index.ts';
import { bicubicDouble, bicubicHalve, psnr, rgb } from '../apps/server/test/vision/images.ts';
import { median, printTable } from './stats.ts';

const source = readFileSync(new URL('../apps/server/test/fixtures/vision/photo-three-faces.jpg', import.meta.url));
const sizes = [512, 1024] as const;
const runs = Number(process.env.BENCH_RUNS ?? 3);

async function square(size: number): Promise<Buffer> {
  return sharp(source).resize(size, size, { fit: 'cover' }).png().toBuffer();
}

/** Runs `fn` while sampling the process's resident memory (workers included) every 20 ms. */
async function measure(fn: () => Promise<unknown>): Promise<{ ms: number; peakMb: number; deltaMb: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  const t0 = performance.now();
  try {
    await fn();
  } finally {
    clearInterval(timer);
  }
  const ms = performance.now() - t0;
  peak = Math.max(peak, process.memoryUsage.rss());
  return { ms, peakMb: peak / 2 ** 20, deltaMb: (peak - before) / 2 ** 20 };
}

async function bench(name: string, op: (img: Buffer) => Promise<unknown>, n: number) {
  const rows: Record<string, string | number>[] = [];
  await op(await square(256)); // load the model once: the numbers below are warm
  for (const size of sizes) {
    const img = await square(size);
    const samples = [];
    for (let i = 0; i < n; i++) samples.push(await measure(() => op(img)));
    rows.push({
      op: name,
      px: String(size),
      runs: String(n),
      'median ms': median(samples.map((s) => s.ms)),
      'peak RSS MB': Math.max(...samples.map((s) => s.peakMb)),
      'peak − start MB': Math.max(...samples.map((s) => s.deltaMb)),
    });
  }
  return rows;
}

const rows = [
  ...(await bench('detectFaces', detectFaces, runs)),
  ...(await bench('estimatePose', estimatePose, runs)),
  ...(await bench('upscale ×2', (img) => upscale(img), 1)),
  ...(await bench(
    'sharp lanczos ×2',
    async (img) => {
      const { width = 0, height = 0 } = await sharp(img).metadata();
      return sharp(img)
        .resize(width * 2, height * 2, { kernel: 'lanczos3' })
        .png()
        .toBuffer();
    },
    runs,
  )),
  ...(await bench('removeBackground', (img) => removeBackground(img), 1)),
];
printTable('vision operations, warm (RSS is the whole process: main thread and vision workers)', rows);

const up = rows.filter((r) => r.op === 'upscale ×2');
const lanczos = rows.filter((r) => r.op === 'sharp lanczos ×2');
printTable(
  'upscale ×2: ESRGAN-slim time as a multiple of sharp lanczos',
  sizes.map((px, i) => ({
    px: String(px),
    'ESRGAN ms': up[i]?.['median ms'] ?? NaN,
    'lanczos ms': lanczos[i]?.['median ms'] ?? NaN,
    ratio: Number(up[i]?.['median ms']) / Number(lanczos[i]?.['median ms']),
  })),
);

// Quality: halve 128-px pieces as DIV2K was made (antialiased bicubic), double them back, PSNR against the piece.
const quality: Record<string, string | number>[] = [];
for (const [left, top] of [
  [192, 128],
  [480, 192],
  [288, 384],
] as const) {
  const piece = await rgb(await sharp(source).extract({ left, top, width: 128, height: 128 }).png().toBuffer());
  const half = bicubicHalve(piece.data, 128, 128);
  const halfPng = await sharp(half.data, { raw: { width: 64, height: 64, channels: 3 } })
    .png()
    .toBuffer();
  const esrgan = await rgb(await upscale(halfPng));
  const lanczosUp = await rgb(await sharp(halfPng).resize(128, 128, { kernel: 'lanczos3' }).png().toBuffer());
  quality.push({
    piece: `${left},${top}`,
    'ESRGAN dB': psnr(esrgan.data, piece.data),
    'aligned bicubic dB': psnr(bicubicDouble(half.data, 64, 64), piece.data),
    'sharp lanczos dB': psnr(lanczosUp.data, piece.data),
  });
}
printTable('super-resolution PSNR (higher is better), 64→128 px pieces of photo-three-faces.jpg', quality);

await closeVision();
