import sharp from 'sharp';
import { vi } from 'vitest';
import type { EngineEvents, EngineProgress, ModelRef } from '../../src/engines/types.ts';

export const SDXL: ModelRef = { id: 'animaginexl4.0', path: 'animagine-xl-4.0.safetensors', modelType: 'sdxl' };

export function recorder(): EngineEvents & { events: EngineProgress[]; logs(): string[] } {
  const events: EngineProgress[] = [];
  return {
    events,
    onProgress: (e) => events.push(e),
    logs: () => events.flatMap((e) => e.logs ?? []),
  };
}

export async function raw(bytes: Buffer): Promise<{ data: Buffer; width: number; height: number; channels: number }> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** A PNG with a horizontal gradient, so every pixel differs from its neighbours. */
export async function gradientPng(width: number, height: number): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      data[i] = (x * 7) % 256;
      data[i + 1] = (y * 5) % 256;
      data[i + 2] = (x + y) % 256;
    }
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** A mask PNG: white inside the rectangle, black elsewhere. */
export async function rectMask(
  width: number,
  height: number,
  rect: { x: number; y: number; w: number; h: number },
): Promise<Buffer> {
  const data = Buffer.alloc(width * height);
  for (let y = rect.y; y < rect.y + rect.h; y++) data.fill(255, y * width + rect.x, y * width + rect.x + rect.w);
  return sharp(data, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}

/**
 * Runs `fn` on a virtual clock, so the client's real backoff (seconds) passes at once: timers and Date are
 * faked, sockets are real, and the clock moves in 50 ms steps while I/O settles in between.
 */
export async function virtualTime<T>(fn: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  try {
    let done = false;
    const run = fn().finally(() => (done = true));
    run.catch(() => undefined);
    while (!done) {
      await new Promise((r) => setImmediate(r));
      await vi.advanceTimersByTimeAsync(50);
    }
    return await run;
  } finally {
    vi.useRealTimers();
  }
}
