import { EXPORT_LOAD_POLL_MS, EXPORT_LOAD_TIMEOUT_MS } from '@koma/domain';
import { ExportError, rastersToDraw, type DocState, type PagePlan } from '@koma/editor';
import { exportText } from './i18n.ts';

/** What waiting needs of the canvas image store. */
export interface ImageSource {
  get(id: string): unknown;
  failed(id: string): boolean;
}

/** Image ids of the current variations of the IMAGE layers a plan draws, with the layer names that use them. */
export function planImageIds(doc: DocState, plans: readonly PagePlan[]): Map<string, string[]> {
  const ids = new Map<string, string[]>();
  for (const plan of plans) {
    for (const node of rastersToDraw(plan)) {
      const layer = node.layerId ? doc.layers[node.layerId] : undefined;
      if (layer?.type !== 'IMAGE') continue;
      const variation = layer.data.variations[layer.data.variationsIdx];
      if (variation) ids.set(variation.id, [...(ids.get(variation.id) ?? []), layer.name || 'Image']);
    }
  }
  return ids;
}

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => window.setTimeout(resolve, ms)),
};

/**
 * Starts loading every image and waits until all are ready, polling every 500 ms for at most 10 s (editor.md §9).
 * Fails with the names of the layers whose images did not load, rather than exporting holes.
 */
export async function waitForImages(
  images: ImageSource,
  wanted: ReadonlyMap<string, string[]>,
  onWait?: (elapsedMs: number) => void,
  clock: Clock = realClock,
): Promise<void> {
  const start = clock.now();
  const missing = () => [...wanted.keys()].filter((id) => images.get(id) === null);
  let pending = missing();
  while (
    pending.length > 0 &&
    pending.some((id) => !images.failed(id)) &&
    clock.now() - start < EXPORT_LOAD_TIMEOUT_MS
  ) {
    onWait?.(clock.now() - start);
    await clock.sleep(EXPORT_LOAD_POLL_MS);
    pending = missing();
  }
  if (pending.length === 0) return;
  const names = [...new Set(pending.flatMap((id) => wanted.get(id) ?? [id]))];
  throw new ExportError(exportText('error.imagesMissing', { names: names.join(', ') }));
}
