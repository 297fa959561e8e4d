import type { ViewTransform } from '@koma/domain';
import { interpolateView } from './view.ts';

/** The clock and frame source; injected so tests drive time by hand. */
export interface FrameClock {
  now(): number;
  requestFrame(callback: () => void): number;
  cancelFrame(handle: number): void;
}

/** Eases the view to a target (500 ms to a layer or the centre, 300 ms for zoom steps); a new move replaces the old. */
export class ViewAnimator {
  private handle: number | null = null;

  constructor(
    private readonly clock: FrameClock,
    private readonly apply: (view: ViewTransform) => void,
  ) {}

  animate(from: ViewTransform, to: ViewTransform, durationMs: number): void {
    this.stop();
    const start = this.clock.now();
    const step = () => {
      const t = durationMs <= 0 ? 1 : (this.clock.now() - start) / durationMs;
      this.apply(interpolateView(from, to, t));
      this.handle = t < 1 ? this.clock.requestFrame(step) : null;
    };
    step();
  }

  get running(): boolean {
    return this.handle !== null;
  }

  stop(): void {
    if (this.handle !== null) this.clock.cancelFrame(this.handle);
    this.handle = null;
  }
}
