import type { EngineEvents } from '../types.ts';
import { throwIfAborted } from '../errors.ts';
import { renderPreview } from './artwork.ts';
import type { Artwork } from './artwork.ts';

const PREVIEWS_PER_IMAGE = 4;

/**
 * Counts sampler-like steps over the whole job so the `Progress: n/m` lines only ever go up,
 * yields to the event loop between steps (so an abort is seen promptly) and sends a few small previews.
 */
export class StepReporter {
  private done = 0;
  readonly total: number;

  constructor(
    private readonly events: EngineEvents,
    private readonly signal: AbortSignal,
    private readonly stepsPerImage: number,
    images: number,
    private readonly stepDelayMs: number,
  ) {
    this.total = stepsPerImage * images;
  }

  /** Runs the steps of one image, previewing the artwork as its layers are "denoised" in. */
  async runImage(art: Artwork | undefined): Promise<void> {
    const every = Math.max(1, Math.ceil(this.stepsPerImage / PREVIEWS_PER_IMAGE));
    for (let step = 1; step <= this.stepsPerImage; step++) {
      throwIfAborted(this.signal);
      await this.pause();
      throwIfAborted(this.signal);
      this.done++;
      const event: Parameters<EngineEvents['onProgress']>[0] = {
        logs: [`Progress: ${this.done}/${this.total}`],
        progress: this.done / this.total,
      };
      if (art && (step % every === 0 || step === this.stepsPerImage)) {
        event.preview = { bytes: await renderPreview(art, step / this.stepsPerImage), mime: 'image/jpeg' };
      }
      this.events.onProgress(event);
    }
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      if (this.stepDelayMs > 0) setTimeout(resolve, this.stepDelayMs);
      else setImmediate(resolve);
    });
  }
}
