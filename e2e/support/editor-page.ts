import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { signUp, uniqueEmail } from './flows.ts';

// What the editor specs do to the page, through the debug hook `window.__koma` (the EditorSession).

/** A point of the document (page coordinates) on the screen, through the current view. */
export async function toScreen(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const box = (await page.getByTestId('canvas').boundingBox())!;
  const view = await page.evaluate(() => (window as unknown as { __koma: any }).__koma.view());
  return { x: box.x + view.x + x * view.zoom, y: box.y + view.y + y * view.zoom };
}

/** Leaves the focused field, so its edit is committed and keys go to the canvas again. */
export async function blur(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

export async function select(page: Page, id: string): Promise<void> {
  await page.evaluate((layer) => (window as unknown as { __koma: any }).__koma.ui.update({ selection: [layer] }), id);
}

/** The credits shown in the header (credits + purchased credits). */
export async function creditTotal(page: Page): Promise<number> {
  return Number((await page.getByTestId('credit-total').innerText()).replace(/[^0-9]/g, ''));
}

/** Waits until no layer is processing a job. */
export async function idle(page: Page): Promise<void> {
  const processing = () =>
    page.evaluate(() => Object.keys((window as unknown as { __koma: any }).__koma.ui.state.processing).length);
  await expect.poll(processing, { timeout: 10_000 }).toBe(0);
}

/** Signs a new account up and opens a new comic in the editor; returns the account's email. */
export async function newComic(page: Page, label: string): Promise<string> {
  const email = uniqueEmail(label);
  await signUp(page, email);
  await page.getByRole('button', { name: /New comic/ }).click();
  await page.waitForURL(/\/editor\/[^/]+$/);
  await page.waitForSelector('[data-testid=canvas] canvas');
  return email;
}

/** A layer of the open page as the specs read it (data left loose: each spec reads its own kind's fields). */
export type PageLayer = {
  id: string;
  type: string;
  transform: { x: number; y: number; size: { width: number; height: number } };
  rotation?: number;
  data: any;
};

/** The open page's top-level layers, in stacking order. */
export async function pageLayers(page: Page): Promise<PageLayer[]> {
  return page.evaluate(() => {
    const s = (window as any).__koma;
    const doc = s.editor.doc;
    return doc.layers[s.activeRoot()].children.map((id: string) => doc.layers[id]);
  });
}

/** The open page's text layers, in stacking order. */
export async function textLayers(page: Page): Promise<PageLayer[]> {
  return (await pageLayers(page)).filter((l) => l.type === 'TEXT');
}

/**
 * Drops a solid PNG of the given size and colour at a point of the page (Alt held or not), as a file dragged from
 * the desktop.
 */
export async function dropPng(
  page: Page,
  size: { width: number; height: number },
  at: { x: number; y: number },
  alt = false,
  colour = '#3366cc',
) {
  const screen = await toScreen(page, at.x, at.y);
  await page.evaluate(
    async ({ size, screen, alt, colour }) => {
      const c = document.createElement('canvas');
      c.width = size.width;
      c.height = size.height;
      const g = c.getContext('2d')!;
      g.fillStyle = colour;
      g.fillRect(0, 0, size.width, size.height);
      const blob = await new Promise<Blob>((r) => c.toBlob((b) => r(b!), 'image/png'));
      const transfer = new DataTransfer();
      transfer.items.add(new File([blob], 'art.png', { type: 'image/png' }));
      const target = document.querySelector('[data-testid=canvas]')!;
      const init = { dataTransfer: transfer, clientX: screen.x, clientY: screen.y, altKey: alt, bubbles: true };
      target.dispatchEvent(new DragEvent('dragover', { ...init, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { ...init, cancelable: true }));
    },
    { size, screen, alt, colour },
  );
}
