// How long a job will take, learned from how long the same engine took for the same kind of work lately. Work is
// counted in units a kind declares (diffusion: steps × images; upscale: tiles; anything else: one job), so a
// 30-step batch of four and a 4-step single image get estimates of their own from the same experience.
import { GENERATION_ESTIMATE_PER_IMAGE_MS, PROCESSING_ESTIMATE_MS } from '@koma/domain';

/** Weight of the newest measurement: recent speed matters most (a warmed-up GPU, a busier CPU). */
export const ESTIMATE_WEIGHT = 0.3;

interface Speed {
  msPerUnit: number;
  samples: number;
}

/** Learned speed per engine and kind; one book per process that runs jobs. */
export class EstimateBook {
  private readonly speeds = new Map<string, Speed>();

  private static key(engine: string, kind: string): string {
    return `${engine}:${kind}`;
  }

  /**
   * The expected duration of `units` of work, in ms: from the learned speed when there is one, else the spec's
   * defaults (3,000 ms per image for a generation, 10,000 ms for any other processing).
   */
  estimate(engine: string, kind: string, units: number, images?: number): number {
    const speed = this.speeds.get(EstimateBook.key(engine, kind));
    if (speed) return Math.max(1, Math.round(speed.msPerUnit * Math.max(1, units)));
    return images !== undefined && images > 0 ? images * GENERATION_ESTIMATE_PER_IMAGE_MS : PROCESSING_ESTIMATE_MS;
  }

  /** Records how long `units` of work took; ignores nonsense (no units, no time). */
  record(engine: string, kind: string, units: number, ms: number): void {
    if (!(units > 0) || !(ms > 0) || !Number.isFinite(ms)) return;
    const key = EstimateBook.key(engine, kind);
    const measured = ms / units;
    const old = this.speeds.get(key);
    this.speeds.set(
      key,
      old
        ? { msPerUnit: old.msPerUnit + ESTIMATE_WEIGHT * (measured - old.msPerUnit), samples: old.samples + 1 }
        : { msPerUnit: measured, samples: 1 },
    );
  }

  /** How many runs the speed of an engine and kind was learned from. */
  samples(engine: string, kind: string): number {
    return this.speeds.get(EstimateBook.key(engine, kind))?.samples ?? 0;
  }
}
