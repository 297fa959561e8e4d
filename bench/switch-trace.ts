/**
 * Where a page switch's time goes (chapter benchmark, CHAPTER_SWITCH_TRACE=1): an init script records every picture
 * decode in the page (WebCodecs `ImageDecoder.decode` and `createImageBitmap`, start and end), and after each switch
 * the resource timing of the requests it made (its own page's pictures, `picture`; the neighbours' fetched
 * ahead, `ahead`) gives each one's queueing (asked → sent: waiting for a connection),
 * server time (sent → first byte) and transfer. All times are ms from the switch's start.
 */
import type { Page } from 'playwright-core';
import { median, percentile, printTable } from './stats.ts';

/** Installed before the app loads: wraps the decoders to log their spans, and keeps every resource timing. */
export const DECODE_LOG_SCRIPT = `(() => {
  performance.setResourceTimingBufferSize(1e6);
  const log = (window.__decodeLog = []);
  const wrap = (kind, start, promise) => promise.finally(() => log.push({ kind, start, end: performance.now() }));
  if (window.ImageDecoder) {
    const decode = ImageDecoder.prototype.decode;
    ImageDecoder.prototype.decode = function (...args) { return wrap('decode', performance.now(), decode.apply(this, args)); };
  }
  const bitmap = window.createImageBitmap;
  window.createImageBitmap = function (...args) { return wrap('bitmap', performance.now(), bitmap.apply(this, args)); };
})()`;

/** One switch's timeline, read right after it settled (`window.__switchStart` is set by the switch probe). */
export interface SwitchTimeline {
  total: number;
  requests: { kind: string; queued: number; server: number; transfer: number; start: number; end: number }[];
  decodes: { kind: string; start: number; end: number }[];
}

const READ = (total: number) => `(() => {
  const t0 = window.__switchStart;
  const kind = (url) => {
    const path = new URL(url).pathname;
    if (/^\\/api\\/images\\/[^/]+\\/thumbnail$/.test(path)) return 'thumbnail';
    const picture = /^\\/api\\/images\\/([^/]+)(\\/scaled\\/\\d+)?$/.exec(path);
    if (picture) return window.__switchIds.includes(decodeURIComponent(picture[1])) ? 'picture' : 'ahead';
    return path;
  };
  const requests = performance.getEntriesByType('resource').filter((e) => e.startTime >= t0).map((e) => ({
    kind: kind(e.name),
    start: e.startTime - t0,
    queued: (e.requestStart || e.startTime) - e.startTime,
    server: e.responseStart && e.requestStart ? e.responseStart - e.requestStart : 0,
    transfer: e.responseEnd - (e.responseStart || e.startTime),
    end: e.responseEnd - t0,
  }));
  const decodes = window.__decodeLog.filter((d) => d.start >= t0).map((d) => ({ kind: d.kind, start: d.start - t0, end: d.end - t0 }));
  return { total: ${total}, requests, decodes };
})()`;

export function readTimeline(page: Page, total: number): Promise<SwitchTimeline> {
  return page.evaluate<SwitchTimeline>(READ(total));
}

/** Prints medians and p95s over the switches, then the slowest few switches in detail. */
export function printTimelines(title: string, timelines: readonly SwitchTimeline[]): void {
  const stat = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { p50: median(sorted), p95: percentile(sorted, 95), n: sorted.length };
  };
  const pictures = timelines.flatMap((t) => t.requests.filter((r) => r.kind === 'picture'));
  const rows = [
    { measure: 'switch total', ...stat(timelines.map((t) => t.total)) },
    { measure: 'requests per switch', ...stat(timelines.map((t) => t.requests.length)) },
    { measure: 'picture: queued for a connection', ...stat(pictures.map((r) => r.queued)) },
    { measure: 'picture: server (sent → first byte)', ...stat(pictures.map((r) => r.server)) },
    { measure: 'picture: transfer', ...stat(pictures.map((r) => r.transfer)) },
    { measure: 'last picture received', ...stat(timelines.map((t) => last(t.requests, 'picture'))) },
    { measure: 'decode each (ImageDecoder)', ...stat(spans(timelines, 'decode')) },
    { measure: 'bitmap each (createImageBitmap)', ...stat(spans(timelines, 'bitmap')) },
    { measure: 'first decode start', ...stat(timelines.map((t) => Math.min(...t.decodes.map((d) => d.start)))) },
    { measure: 'last decode end', ...stat(timelines.map((t) => Math.max(0, ...t.decodes.map((d) => d.end)))) },
  ];
  printTable(title, rows);
  const kinds = new Map<string, number>();
  for (const t of timelines) for (const r of t.requests) kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
  console.log(
    `requests by kind over ${timelines.length} switches: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}`,
  );
  for (const t of [...timelines].sort((a, b) => b.total - a.total).slice(0, 3)) {
    console.log(`\nslow switch ${t.total.toFixed(1)} ms:`);
    const events = [
      ...t.requests.map((r) => ({
        at: r.start,
        text: `${r.kind} asked ${r.start.toFixed(1)}, queued ${r.queued.toFixed(1)}, server ${r.server.toFixed(1)}, done ${r.end.toFixed(1)}`,
      })),
      ...t.decodes.map((d) => ({ at: d.start, text: `${d.kind} ${d.start.toFixed(1)} → ${d.end.toFixed(1)}` })),
    ].sort((a, b) => a.at - b.at);
    for (const e of events) console.log(`  ${e.text}`);
  }
}

function last(requests: SwitchTimeline['requests'], kind: string): number {
  return Math.max(0, ...requests.filter((r) => r.kind === kind).map((r) => r.end));
}

function spans(timelines: readonly SwitchTimeline[], kind: string): number[] {
  return timelines.flatMap((t) => t.decodes.filter((d) => d.kind === kind).map((d) => d.end - d.start));
}
