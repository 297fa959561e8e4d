// What the built app ships and how the server hands it out: bundled fonts and demo images from the same origin
// (no CDN), deep links that survive a reload, and a page for addresses that lead nowhere.
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors, signUp, uniqueEmail } from '../support/flows.ts';
import { useServerAndBrowser } from '../support/suite.ts';

const suite = useServerAndBrowser();

describe('shipped assets', () => {
  it('loads the lettering, display and Japanese fonts from the app itself', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl);
    await page.goto('/signin');
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in to Koma' }).isVisible()).toBe(true);
    const loaded = await page.evaluate(async () => {
      const families = ['16px "Comic Neue"', 'bold 16px "Comic Neue"', '16px "Bangers"', '16px "Noto Sans JP"'];
      const faces = await Promise.all(
        families.map((f) => document.fonts.load(f, f.includes('Noto') ? 'あ漫画' : 'Ab')),
      );
      return faces.map((list) => list.length);
    });
    expect(loaded.every((count) => count > 0)).toBe(true);
    const fontUrls = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((name) => /\.woff2?$/.test(name)),
    );
    expect(fontUrls.length).toBeGreaterThan(0);
    expect(fontUrls.every((url) => url.startsWith(suite.server.baseUrl))).toBe(true);
    expect(problems.external).toEqual([]);
    await context.close();
  });

  it('serves the demo folder and the fixed sample image', async () => {
    const { context, page } = await openPage(suite.browser, suite.server.baseUrl);
    for (const file of ['sample-wave.svg', 'panel-cat.svg', 'panel-city.svg']) {
      const reply = await page.request.get(`/demo/${file}`);
      expect(reply.status(), file).toBe(200);
      expect(reply.headers()['content-type'], file).toContain('image/svg+xml');
    }
    // Each one must decode as an image, not merely be served.
    await page.goto('/signin');
    const sizes = await page.evaluate(async () =>
      Promise.all(
        ['sample-wave.svg', 'panel-cat.svg', 'panel-city.svg'].map(async (file) => {
          const img = new Image();
          img.src = `/demo/${file}`;
          img.style.width = '240px';
          document.body.prepend(img);
          await img.decode();
          return [img.naturalWidth, img.naturalHeight];
        }),
      ),
    );
    expect(sizes).toEqual([
      [1024, 1024],
      [832, 1216],
      [1216, 832],
    ]);
    await screenshot(page, 'demo-images');
    await context.close();
  });

  it('reloads a deep link into the app and shows a page for unknown addresses', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl);
    await signUp(page, uniqueEmail('assets'));
    await page.goto('/signin');
    // Signed in, the sign-in page is not where anyone wants to be.
    await page.waitForURL('**/dashboard');
    await page.goto('/dashboard/editor/does-not-exist');
    // Spec §8's message; the editor screen decides how it shows it.
    await expect.poll(() => page.getByText('Failed to load workspace does-not-exist').isVisible()).toBe(true);
    await page.goto('/no/such/page');
    await expect.poll(() => page.getByRole('heading', { name: 'Page not found' }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await page.waitForURL('**/dashboard');
    expect(realErrors(problems.errors).filter((line) => !line.startsWith('Failed to load workspace'))).toEqual([]);
    await context.close();
  });
});
