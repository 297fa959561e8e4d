// The editor under the server's Content-Security-Policy (issue #20 item 7): load it, generate an image into a panel
// (job stream, data: previews, stored images), export a PNG (canvas, blob: download) and a PSD (module worker), and
// fail on any CSP violation the page reports, as an event or as a console error.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BLEND_WASM_BASE64 } from '../../packages/editor/src/export/blend-wasm.ts';
import { openPage, screenshot } from '../support/browser.ts';
import { blur, idle, newComic, toScreen } from '../support/editor-page.ts';
import { realErrors } from '../support/flows.ts';
import { useServerAndBrowser } from '../support/suite.ts';

const suite = useServerAndBrowser();

/** Every `securitypolicyviolation` the page fires, from before its first script runs. */
async function recordViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__csp.push(`${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
}

const violations = (page: Page) => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);

async function imageLayers(page: Page): Promise<{ id: string; variations: number }[]> {
  return page.evaluate(() => {
    const doc = (window as unknown as { __koma: any }).__koma.editor.doc;
    return Object.entries(doc.layers as Record<string, any>)
      .filter(([, l]) => l.type === 'IMAGE')
      .map(([id, l]) => ({ id, variations: (l.data.variations ?? []).length }));
  });
}

async function exportAs(page: Page, format: 'png' | 'psd'): Promise<number> {
  await page.getByTestId(`export-format-${format}`).check();
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 90_000 }),
    page.getByTestId('export-start').click(),
  ]);
  const path = await download.path();
  await expect.poll(() => page.getByTestId('export-progress').count(), { timeout: 30_000 }).toBe(0);
  expect(await page.getByTestId('export-error').count()).toBe(0);
  const { statSync } = await import('node:fs');
  return statSync(path).size;
}

describe('the editor under the Content-Security-Policy', () => {
  it('generates and exports with no policy violation', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await recordViolations(page);
    const response = await page.goto('/');
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(response?.headers()['x-content-type-options']).toBe('nosniff');

    await newComic(page, 'csp');
    await page.getByTestId('prompt-input').fill('a lighthouse on a cliff at dusk');
    await blur(page);
    const centre = await toScreen(page, 850, 1200);
    await page.mouse.move(centre.x, centre.y);
    await page.keyboard.press('g');
    await expect
      .poll(async () => (await imageLayers(page)).some((l) => l.variations > 0), { timeout: 60_000 })
      .toBe(true);
    await idle(page);
    // The stored picture is drawn from /api/images, which the policy allows.
    await page.waitForTimeout(500);
    await screenshot(page, 'csp-generated');

    await page.getByTestId('export-open').click();
    expect(await exportAs(page, 'png')).toBeGreaterThan(10_000);
    expect(await exportAs(page, 'psd')).toBeGreaterThan(10_000);
    await screenshot(page, 'csp-exported');
    // The export worker (kept for its idle time) may compile the blend kernel under the policy it was served with;
    // without 'wasm-unsafe-eval' it would fall back to the JavaScript loop, twice as slow on blended layers.
    const worker = page.workers().find((w) => w.url().includes('psd.worker'));
    expect(worker, 'the export worker').toBeDefined();
    const compiled = await worker!.evaluate((base64) => {
      try {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        new WebAssembly.Instance(new WebAssembly.Module(bytes), { koma: { soft: () => undefined } });
        return 'compiled';
      } catch (error) {
        return String(error);
      }
    }, BLEND_WASM_BASE64);
    expect(compiled).toBe('compiled');

    expect(await violations(page)).toEqual([]);
    const cspErrors = problems.errors.filter((e) => /Content Security Policy|Refused to/i.test(e));
    expect(cspErrors).toEqual([]);
    expect(realErrors(problems.errors)).toEqual([]);
    expect(problems.external).toEqual([]);
    await context.close();
  }, 180_000);
});
