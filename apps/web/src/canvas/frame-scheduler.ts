import { FPS_RESTRICTED_CAP, FPS_PREFERRED_DEFAULT } from '@koma/domain';

/**
 * Draws at most `fps` times a second and only when something asked for a draw (spec §9: preferred 60, restricted
 * mode capped at 30).
 */
export class FrameScheduler {
  private pending = false;
  private handle: number | null = null;
  private last = 0;
  private fps: number;

  constructor(
    private readonly draw: () => void,
    fps = FPS_PREFERRED_DEFAULT,
    restricted = false,
  ) {
    this.fps = restricted ? Math.min(fps, FPS_RESTRICTED_CAP) : fps;
  }

  setFps(fps: number, restricted: boolean): void {
    this.fps = Math.max(1, restricted ? Math.min(fps, FPS_RESTRICTED_CAP) : fps);
  }

  request(): void {
    this.pending = true;
    if (this.handle === null) this.handle = requestAnimationFrame(this.tick);
  }

  private readonly tick = (now: number): void => {
    this.handle = null;
    if (!this.pending) return;
    if (now - this.last < 1000 / this.fps - 1) {
      this.handle = requestAnimationFrame(this.tick);
      return;
    }
    this.last = now;
    this.pending = false;
    this.draw();
  };

  /** Draws now if a draw is due (export and tests need the pixels at once). */
  flush(): void {
    if (this.pending) {
      this.pending = false;
      this.draw();
    }
  }

  dispose(): void {
    if (this.handle !== null) cancelAnimationFrame(this.handle);
    this.handle = null;
  }
}
