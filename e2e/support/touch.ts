import type { BrowserContext, CDPSession, Page } from 'playwright-core';

// Real touch input: Chromium's own touch pipeline through CDP Input.dispatchTouchEvent, so the page receives the
// pointer and touch events a finger makes (pointerType "touch", one pointer id per finger), not synthetic mouse events.

export interface Finger {
  x: number;
  y: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Touch {
  private constructor(private readonly cdp: CDPSession) {}

  static async of(context: BrowserContext, page: Page): Promise<Touch> {
    return new Touch(await context.newCDPSession(page));
  }

  private send(type: 'touchStart' | 'touchMove' | 'touchEnd', fingers: readonly Finger[]): Promise<unknown> {
    return this.cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: fingers.map((f, id) => ({ x: f.x, y: f.y, id, radiusX: 4, radiusY: 4, force: 1 })),
    });
  }

  /** One finger down, moved, and lifted step by step, for a spec that looks at the screen while it is held. */
  start(at: Finger): Promise<unknown> {
    return this.send('touchStart', [at]);
  }

  move(to: Finger): Promise<unknown> {
    return this.send('touchMove', [to]);
  }

  end(): Promise<unknown> {
    return this.send('touchEnd', []);
  }

  /** Fingers go down together, move in `steps` straight steps from `from` to `to`, and lift. */
  async gesture(from: readonly Finger[], to: readonly Finger[], steps = 8): Promise<void> {
    await this.send('touchStart', from);
    for (let i = 1; i <= steps; i++) {
      const t = i / steps;
      await this.send(
        'touchMove',
        from.map((f, k) => ({ x: f.x + (to[k]!.x - f.x) * t, y: f.y + (to[k]!.y - f.y) * t })),
      );
      await sleep(16);
    }
    await this.send('touchEnd', []);
  }

  /** One finger held still for `ms`, then lifted. */
  async longPress(at: Finger, ms = 800): Promise<void> {
    await this.send('touchStart', [at]);
    await sleep(ms);
    await this.send('touchEnd', []);
  }

  async tap(at: Finger): Promise<void> {
    await this.send('touchStart', [at]);
    await sleep(30);
    await this.send('touchEnd', []);
  }
}

/** The share of the viewport the element covers on screen (its rect clipped to the viewport), 0 to 1. */
export async function coverage(page: Page, selector: string): Promise<number> {
  return page.evaluate((sel) => {
    const element = document.querySelector(sel);
    if (!element) return 0;
    const r = element.getBoundingClientRect();
    const w = Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0));
    const h = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
    return (w * h) / (innerWidth * innerHeight);
  }, selector);
}

/** True when the element's centre is not covered by another element (a sheet, a panel, a dialog). */
export async function centreUncovered(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const element = document.querySelector(sel);
    if (!element) return false;
    const r = element.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && element.contains(hit);
  }, selector);
}
