// Progress of a running job from what the stream carries (editor.md §4 "Image processing"): an explicit 0..1
// `progress`, else the last log line that is either a "Progress:" line or a percent with step counts
// (`45%|████      | 9/20`, the shape tqdm prints).

/** The fraction done (0..1) a single log line states, or undefined when it states none. */
export function progressOfLine(line: string): number | undefined {
  const text = line.trim();
  const prefixed = /^Progress:\s*(.*)$/i.exec(text);
  if (prefixed) return parseAmount(prefixed[1] ?? '');
  // A percent followed by step counts somewhere later on the line: "45%|████ | 9/20 [00:03<00:04]".
  const tqdm = /(\d{1,3}(?:\.\d+)?)%\s*\|[^|]*\|\s*(\d+)\s*\/\s*(\d+)/.exec(text);
  if (tqdm) {
    const done = Number(tqdm[2]);
    const total = Number(tqdm[3]);
    if (total > 0) return clamp01(done / total);
    return clamp01(Number(tqdm[1]) / 100);
  }
  return undefined;
}

/** "9/20", "45%", "45 %" or a bare fraction "0.45". */
function parseAmount(amount: string): number | undefined {
  const steps = /^(\d+)\s*\/\s*(\d+)/.exec(amount);
  if (steps) {
    const total = Number(steps[2]);
    return total > 0 ? clamp01(Number(steps[1]) / total) : undefined;
  }
  const percent = /^(\d+(?:\.\d+)?)\s*%/.exec(amount);
  if (percent) return clamp01(Number(percent[1]) / 100);
  const fraction = /^(\d*\.?\d+)\b/.exec(amount);
  if (fraction) {
    const value = Number(fraction[1]);
    // "Progress: 45" without a sign reads as a percent; a value up to 1 as a fraction.
    return clamp01(value <= 1 ? value : value / 100);
  }
  return undefined;
}

/** The progress the latest log line that states one gives; lines are read newest (last) first. */
export function progressFromLogs(logs: readonly string[] | string | undefined): number | undefined {
  if (logs === undefined) return undefined;
  const lines = typeof logs === 'string' ? logs.split(/\r?\n|\r/) : logs.flatMap((l) => l.split(/\r?\n|\r/));
  for (let i = lines.length - 1; i >= 0; i--) {
    const value = progressOfLine(lines[i] ?? '');
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The event's own progress when it carries one (0..1), else what its logs say. */
export function progressOfEvent(event: { progress?: unknown; logs?: unknown }): number | undefined {
  if (typeof event.progress === 'number' && Number.isFinite(event.progress)) return clamp01(event.progress);
  const logs = event.logs;
  if (typeof logs === 'string') return progressFromLogs(logs);
  if (Array.isArray(logs)) return progressFromLogs(logs.filter((l): l is string => typeof l === 'string'));
  return undefined;
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}
