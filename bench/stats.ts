/** Small statistics and table helpers shared by the benchmarks. */

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function summarize(samples: readonly number[]): { p50: number; p99: number; mean: number; n: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((s, x) => s + x, 0) / (sorted.length || 1);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean, n: sorted.length };
}

export function median(samples: readonly number[]): number {
  return percentile(
    [...samples].sort((a, b) => a - b),
    50,
  );
}

/** Prints rows as an aligned text table. */
export function printTable(title: string, rows: Record<string, string | number>[]): void {
  console.log(`\n${title}`);
  if (rows.length === 0) return;
  const headers = Object.keys(rows[0]!);
  const cell = (v: string | number) => (typeof v === 'number' ? formatNumber(v) : v);
  const widths = headers.map((h) => Math.max(h.length, ...rows.map((r) => cell(r[h] ?? '').length)));
  const line = (values: string[]) => values.map((v, i) => v.padStart(widths[i]!)).join('  ');
  console.log(line(headers));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(headers.map((h) => cell(row[h] ?? ''))));
}

function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Math.abs(v) >= 1000) return v.toFixed(0);
  if (Math.abs(v) >= 10) return v.toFixed(1);
  return v.toFixed(3);
}

export function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) {
    g();
    g();
  }
}

export function heapUsed(): number {
  gc();
  return process.memoryUsage().heapUsed;
}
