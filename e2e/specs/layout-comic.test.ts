// A comic with work in it at each viewport (issue 16): text, an imported image and a finished generation, the queue
// panel open and a toast showing. The toast must never cover the queue panel (or its chip), whatever the screen; the
// screenshots are the ones to look at for overlaps, clipped text and unreadable rows.
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors } from '../support/flows.ts';
import { blur, idle, newComic } from '../support/editor-page.ts';
import { useServerAndBrowser } from '../support/suite.ts';

const suite = useServerAndBrowser();

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const boxes = (locator: Locator) =>
  locator.evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );

/** Drops a generated PNG on the canvas (the same import path as Upload and paste). */
async function dropImage(page: Page, name: string): Promise<void> {
  await page.evaluate(async (file) => {
    const c = document.createElement('canvas');
    c.width = 600;
    c.height = 400;
    const g = c.getContext('2d')!;
    const grad = g.createLinearGradient(0, 0, 600, 400);
    grad.addColorStop(0, '#f59e0b');
    grad.addColorStop(1, '#7c3aed');
    g.fillStyle = grad;
    g.fillRect(0, 0, 600, 400);
    const blob = await new Promise<Blob>((r) => c.toBlob((b) => r(b!), 'image/png'));
    const transfer = new DataTransfer();
    transfer.items.add(new File([blob], file, { type: 'image/png' }));
    const target = document.querySelector('[data-testid=canvas]')!;
    const r = target.getBoundingClientRect();
    const init = {
      dataTransfer: transfer,
      clientX: r.left + r.width / 2,
      clientY: r.top + r.height / 2,
      bubbles: true,
      cancelable: true,
    };
    target.dispatchEvent(new DragEvent('dragover', init));
    target.dispatchEvent(new DragEvent('drop', init));
  }, name);
  await expect
    .poll(() =>
      page.evaluate(
        (file) =>
          Object.values((window as unknown as { __koma: any }).__koma.editor.doc.layers).some(
            (l: any) => l.type === 'IMAGE' && l.name === file,
          ),
        name,
      ),
    )
    .toBe(true);
}

/** Opens a sidebar (a sheet on the phone) with its toggle, runs `act`, and leaves it as it was on the desktop. */
async function withSidebar(page: Page, side: 'left' | 'right', act: () => Promise<void>): Promise<void> {
  const toggle = page.getByTestId(`toggle-${side}`);
  const wasOpen = (await toggle.getAttribute('aria-expanded')) === 'true';
  if (!wasOpen) await toggle.click();
  await act();
  if (!wasOpen) await toggle.click();
}

/** Text, an image and one finished generation (the builtin engine): the queue chip then shows. */
async function fillComic(page: Page): Promise<void> {
  await withSidebar(page, 'left', async () => {
    await page.getByTestId('add-text').click();
    await page.getByTestId('add-text').click();
  });
  await dropImage(page, 'harbour-at-dusk-reference.png');
  await withSidebar(page, 'right', async () => {
    await page.getByTestId('tab-prompt').click();
    await page.getByTestId('prompt-input').fill('a lighthouse keeper at dusk');
    await blur(page);
    await page.getByTestId('generate-button').click();
  });
  await expect.poll(() => page.getByTestId('queue-toggle').isVisible()).toBe(true);
  await idle(page);
}

/** Opens the queue panel, then makes the editor refuse two commands: the toasts stay clear of the panel. */
async function toastsBesideQueue(page: Page, name: string): Promise<void> {
  await page.getByTestId('queue-toggle').click();
  const panel = page.getByTestId('queue-panel');
  await expect.poll(() => panel.isVisible()).toBe(true);
  await blur(page);
  await page.keyboard.press('Escape');
  await page.keyboard.press('v');
  await page.keyboard.press('m');
  await expect.poll(() => page.locator('.toast').count()).toBe(2);
  await page.waitForTimeout(250);
  const queue = [...(await boxes(panel)), ...(await boxes(page.getByTestId('queue-toggle')))];
  for (const toast of await boxes(page.locator('.toast'))) {
    for (const q of queue)
      expect(overlaps(toast, q), `${name}: toast ${JSON.stringify(toast)} over ${JSON.stringify(q)}`).toBe(false);
    // The toast is whole on the screen.
    expect(toast.x).toBeGreaterThanOrEqual(0);
    expect(toast.x + toast.width).toBeLessThanOrEqual(page.viewportSize()!.width);
  }
  await screenshot(page, `comic-${name}-queue-toast`);
  await page.getByTestId('queue-toggle').click();
}

describe('a comic with work in it', () => {
  it('at 1440×900 with a mouse: sidebars open and closed, toasts clear of the queue', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'comic-desktop');
    await fillComic(page);
    await toastsBesideQueue(page, 'desktop');
    await screenshot(page, 'comic-desktop-both-open');
    await page.getByTestId('toggle-left').click();
    await page.getByTestId('toggle-right').click();
    await screenshot(page, 'comic-desktop-both-closed');
    await toastsBesideQueue(page, 'desktop-closed');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('at 1024×768 with touch: sidebars open and closed, toasts clear of the queue', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1024, height: 768 },
      hasTouch: true,
    });
    await newComic(page, 'comic-tablet');
    await fillComic(page);
    await toastsBesideQueue(page, 'tablet');
    await screenshot(page, 'comic-tablet-both-open');
    await page.getByTestId('toggle-left').tap();
    await screenshot(page, 'comic-tablet-left-closed');
    await page.getByTestId('toggle-right').tap();
    await screenshot(page, 'comic-tablet-both-closed');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('at 390×844 on a phone: canvas, both sheets, toasts clear of the queue', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
    });
    await newComic(page, 'comic-phone');
    // The top bar leaves the default name whole ("Untitled comic", not "Untitled co…").
    const name = page.getByTestId('workspace-name');
    await expect.poll(() => name.innerText()).toBe('Untitled comic');
    const whole = () =>
      name.evaluate((el) => {
        const text = document.createRange();
        text.selectNodeContents(el);
        const style = getComputedStyle(el);
        const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return text.getBoundingClientRect().width <= room;
      });
    expect(await whole()).toBe(true);
    await fillComic(page);
    await screenshot(page, 'comic-phone-canvas');
    await toastsBesideQueue(page, 'phone');
    for (const side of ['left', 'right'] as const) {
      await page.getByTestId(`toggle-${side}`).tap();
      await page.waitForTimeout(350);
      // A toast raised while a sheet is open shows over the sheet, not under it.
      await blur(page);
      await page.keyboard.press('v');
      const toast = page.getByTestId('toast');
      await expect.poll(() => toast.isVisible()).toBe(true);
      const box = (await toast.boundingBox())!;
      const onTop = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('.toast') !== null, {
        x: box.x + box.width / 2,
        y: box.y + box.height / 2,
      });
      expect(onTop, side).toBe(true);
      await screenshot(page, `comic-phone-sheet-${side}`);
      await toast.getByRole('button').tap();
      await page.getByTestId(`${side}-sidebar`).getByTestId('close-sheet').tap();
    }
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});
