// The flow-image entry (editor.md §2): /flow/{variationId} finds the user's flow image, creates an INFINITE
// workspace holding it and rewrites the address to the editor without leaving /flow in the history.
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from '../support/browser.ts';
import { seedFlowImage } from '../support/seed.ts';
import { realErrors, signUp, uniqueEmail } from '../support/flows.ts';
import { useServerAndBrowser } from '../support/suite.ts';

const suite = useServerAndBrowser();

describe('flow-image entry', () => {
  it('opens a stored image in a new workspace and replaces /flow with /editor/{id}', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl);
    await signUp(page, uniqueEmail('flow'));
    const { user } = (await (await page.request.get('/api/auth/me')).json()) as { user: { id: string } };

    // A real stored image: the page's own pixels as a PNG.
    const png = await page.screenshot({ clip: { x: 0, y: 0, width: 416, height: 608 } });
    const upload = await page.request.post('/api/image', {
      data: { encoded: png.toString('base64'), fileType: 'png' },
    });
    expect(upload.status()).toBe(201);
    const { id: variationId } = (await upload.json()) as { id: string };
    seedFlowImage(suite.server, user.id, variationId, {
      prompt: 'a lighthouse at dusk',
      negative_prompt: 'blurry',
      seed: 77,
      image_size: { width: 416, height: 608 },
      model_name: 'animaginexl4.0',
      num_inference_steps: 20,
      guidance_scale: 7,
    });

    await page.goto(`/flow/${variationId}`);
    await page.waitForURL(/\/editor\/[^/]+$/);
    const workspaceId = new URL(page.url()).pathname.split('/').pop()!;
    const stored = (await (await page.request.get(`/api/workspace/${workspaceId}`)).json()) as {
      type: string;
      data: { rootLayer: { children: { type: string; transform: unknown; data: Record<string, unknown> }[] } };
    };
    expect(stored.type).toBe('INFINITE');
    expect(stored.data.rootLayer.children).toHaveLength(1);
    const [layer] = stored.data.rootLayer.children;
    expect(layer?.type).toBe('IMAGE');
    expect(layer?.data.variations).toEqual([{ id: variationId }]);
    expect(layer?.data.params).toMatchObject({ prompt: 'a lighthouse at dusk', seed: 77, width: 416, height: 608 });
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'flow-opened');

    // replaceState: Back leads to the page before /flow, not into the entry again (which would create another).
    await page.goBack();
    await page.waitForURL('**/dashboard');
    const list = (await (await page.request.get('/api/workspaces')).json()) as { total: number };
    expect(list.total).toBe(1);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('shows "Could not find flow image" for another user\'s variation', async () => {
    const owner = await openPage(suite.browser, suite.server.baseUrl);
    await signUp(owner.page, uniqueEmail('owner'));
    const { user } = (await (await owner.page.request.get('/api/auth/me')).json()) as { user: { id: string } };
    seedFlowImage(suite.server, user.id, 'private-variation', { prompt: 'x' });
    await owner.context.close();

    const other = await openPage(suite.browser, suite.server.baseUrl);
    await signUp(other.page, uniqueEmail('other'));
    await other.page.goto('/flow/private-variation');
    await expect.poll(() => other.page.getByRole('alert').innerText()).toBe('Could not find flow image');
    expect(new URL(other.page.url()).pathname).toBe('/flow/private-variation');
    await other.context.close();
  });
});
