// Memory of the Chromium renderer a benchmark drives: the processes' resident size from /proc, and, to tell where it
// goes, the JS heaps of the page and of its dedicated workers (V8's used heap and the ArrayBuffers' backing stores,
// which are most of an export's pixels) through the DevTools protocol.
import { readFileSync, readdirSync } from 'node:fs';
import type { Browser, CDPSession } from 'playwright-core';

/** Resident memory (bytes) of Chromium renderer processes started by this process. */
export function rendererRss(): number {
  const parent = new Map<number, number>();
  const renderers: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('--type=renderer')) renderers.push(Number(name));
    } catch {
      // The process ended while we looked.
    }
  }
  const ours = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 10; p = parent.get(p) ?? 0, hops++) if (p === process.pid) return true;
    return false;
  };
  let total = 0;
  for (const pid of renderers.filter(ours)) {
    try {
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      total += Number(rss?.[1] ?? 0) * 1024;
    } catch {
      // Gone.
    }
  }
  return total;
}

/** Samples `measure` every 100 ms while `work` runs; resolves with the work's result and the highest sample. */
export async function peakWhile<T>(measure: () => number, work: () => Promise<T>): Promise<{ value: T; peak: number }> {
  let peak = measure();
  const timer = setInterval(() => (peak = Math.max(peak, measure())), 100);
  try {
    const value = await work();
    return { value, peak: Math.max(peak, measure()) };
  } finally {
    clearInterval(timer);
  }
}

interface HeapUsage {
  usedSize: number;
  backingStorageSize?: number;
}

/** One sample of where the renderer's memory is, in bytes. */
export interface MemorySample {
  ms: number;
  rss: number;
  mainHeap: number;
  mainBuffers: number;
  workerHeap: number;
  workerBuffers: number;
}

/**
 * Samples the renderer's memory every `everyMs` while `work` runs: RSS, and the page's and its workers' JS heaps
 * (a worker started meanwhile is attached when first seen). For profiling (the bench's CHAPTER_TRACE).
 */
export async function traceMemory<T>(
  browser: Browser,
  page: CDPSession,
  work: () => Promise<T>,
  everyMs = 200,
): Promise<{ value: T; samples: MemorySample[] }> {
  const b = await browser.newBrowserCDPSession();
  // Unflattened sessions: messages to a worker go through the browser session (Playwright's sessions have no id).
  const sessions = new Map<string, string>();
  const pending = new Map<number, (result: unknown) => void>();
  let next = 1;
  b.on('Target.receivedMessageFromTarget', (e: { message: string }) => {
    const m = JSON.parse(e.message) as { id?: number; result?: unknown };
    if (m.id !== undefined) pending.get(m.id)?.(m.result);
  });
  const workerHeap = (sessionId: string) =>
    new Promise<HeapUsage | undefined>((resolve) => {
      const id = next++;
      pending.set(id, (r) => resolve(r as HeapUsage | undefined));
      setTimeout(() => resolve(undefined), 1000);
      void b
        .send('Target.sendMessageToTarget', {
          sessionId,
          message: JSON.stringify({ id, method: 'Runtime.getHeapUsage' }),
        })
        .catch(() => resolve(undefined));
    });
  const samples: MemorySample[] = [];
  const start = Date.now();
  let done = false;
  const loop = (async () => {
    while (!done) {
      const { targetInfos } = await b.send('Target.getTargets');
      for (const t of targetInfos) {
        if (t.type !== 'worker' || sessions.has(t.targetId)) continue;
        try {
          const { sessionId } = await b.send('Target.attachToTarget', { targetId: t.targetId, flatten: false });
          sessions.set(t.targetId, sessionId);
        } catch {
          // Ended before we attached.
        }
      }
      const live = new Set(targetInfos.map((t) => t.targetId));
      let heap = 0;
      let buffers = 0;
      for (const [targetId, sessionId] of sessions) {
        if (!live.has(targetId)) {
          sessions.delete(targetId);
          continue;
        }
        const usage = await workerHeap(sessionId);
        heap += usage?.usedSize ?? 0;
        buffers += usage?.backingStorageSize ?? 0;
      }
      const main = (await page.send('Runtime.getHeapUsage')) as HeapUsage;
      samples.push({
        ms: Date.now() - start,
        rss: rendererRss(),
        mainHeap: main.usedSize,
        mainBuffers: main.backingStorageSize ?? 0,
        workerHeap: heap,
        workerBuffers: buffers,
      });
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  try {
    return { value: await work(), samples };
  } finally {
    done = true;
    await loop.catch(() => undefined);
    await b.detach().catch(() => undefined);
  }
}

/** What a memory-infra trace holds that is read here: process names, and each process's allocator dumps. */
interface TraceEvent {
  ph: string;
  pid: number;
  name?: string;
  args?: {
    name?: string;
    dumps?: { allocators?: Record<string, { attrs?: Record<string, { value: string } | undefined> }> };
  };
}

/** Renderer memory by allocator (MB) at one of Chromium's memory-infra dumps. */
export type AllocatorDump = Record<string, number>;

/**
 * Takes a memory-infra dump every `everyMs` while `work` runs (Chromium's own accounting: malloc, partition_alloc's
 * partitions, v8, skia, blink_gc, shared memory...) and resolves with, for each renderer process, the dump whose
 * allocators add up to the most. For profiling where renderer memory goes (the bench's CHAPTER_DUMPS).
 */
export async function allocatorDumps<T>(
  browser: Browser,
  work: () => Promise<T>,
  everyMs = 1000,
): Promise<{ value: T; peaks: { pid: number; total: number; allocators: AllocatorDump }[] }> {
  const b = await browser.newBrowserCDPSession();
  const events: TraceEvent[] = [];
  b.on('Tracing.dataCollected', (e) => void events.push(...(e.value as unknown as TraceEvent[])));
  const complete = new Promise<void>((resolve) => b.once('Tracing.tracingComplete', () => resolve()));
  await b.send('Tracing.start', {
    traceConfig: {
      includedCategories: ['disabled-by-default-memory-infra'],
      excludedCategories: ['*'],
    },
    transferMode: 'ReportEvents',
  });
  let done = false;
  const loop = (async () => {
    while (!done) {
      await b.send('Tracing.requestMemoryDump', { levelOfDetail: 'detailed' }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  let value: T;
  try {
    value = await work();
  } finally {
    done = true;
    await loop;
    await b.send('Tracing.end');
    await complete;
    await b.detach().catch(() => undefined);
  }
  const renderers = new Set(
    events.filter((e) => e.ph === 'M' && e.name === 'process_name' && e.args?.name === 'Renderer').map((e) => e.pid),
  );
  const peaks = new Map<number, { pid: number; total: number; allocators: AllocatorDump }>();
  for (const e of events) {
    if (e.ph !== 'v' || !renderers.has(e.pid)) continue;
    const all = e.args?.dumps?.allocators;
    if (!all) continue;
    const allocators: AllocatorDump = {};
    // Top-level allocators and their first level (partition_alloc/partitions/array_buffer, v8/main, ...).
    for (const [name, dump] of Object.entries(all)) {
      const depth = name.split('/').length;
      const size = dump.attrs?.['size'] ? parseInt(dump.attrs['size'].value, 16) / 1024 / 1024 : 0;
      if (depth === 1 || (depth === 3 && name.startsWith('partition_alloc/partitions/'))) allocators[name] = size;
      // A partition's objects in use, beside the memory it has committed (the rest is free memory it keeps).
      const used = dump.attrs?.['allocated_objects_size'];
      if (depth === 3 && name.startsWith('partition_alloc/partitions/') && used)
        allocators[`${name} (in use)`] = parseInt(used.value, 16) / 1024 / 1024;
    }
    const total = Object.entries(allocators)
      .filter(([name]) => !name.includes('/'))
      .reduce((sum, [, v]) => sum + v, 0);
    const best = peaks.get(e.pid);
    if (!best || total > best.total) peaks.set(e.pid, { pid: e.pid, total, allocators });
  }
  return { value, peaks: [...peaks.values()] };
}
