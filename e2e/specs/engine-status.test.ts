// The engine status page and the model tab against a ComfyUI that lacks files and runs without previews (a fake
// built from ComfyUI's own sources: apps/server/test/engines/fakes/fake-comfyui.ts), as an admin and a user see it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeComfyUI } from '../../apps/server/test/engines/fakes/fake-comfyui.ts';
import { openPage, screenshot } from '../support/browser.ts';
import { newComic } from '../support/editor-page.ts';
import { realErrors, signUp, uniqueEmail } from '../support/flows.ts';
import { useServerAndBrowser } from '../support/suite.ts';

const admin = uniqueEmail('engine-admin');
// A Windows ComfyUI with one catalogue checkpoint in a subfolder, started without --preview-method.
const comfy = await new FakeComfyUI({
  os: 'nt',
  previewMethod: 'none',
  folders: { checkpoints: ['anime/animagine-xl-4.0-opt.safetensors'] },
}).start();
const dir = mkdtempSync(path.join(tmpdir(), 'koma-e2e-comfy-'));
const config = path.join(dir, 'engines.json');
writeFileSync(
  config,
  JSON.stringify({
    default: 'builtin',
    routes: [{ modelTypes: ['sdxl'], engine: 'comfyui' }],
    comfyui: { servers: [comfy.url] },
  }),
);
const suite = useServerAndBrowser({ env: { ENGINES_CONFIG: config, ENGINE_ADMIN_EMAILS: admin } });
afterAll(() => comfy.close());

describe('engine status', () => {
  it('shows an admin what the ComfyUI server lacks, and that previews are off; others are refused', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await signUp(page, admin);
    await page.goto('/admin/engines');
    const server = page.getByTestId('engine-server');
    await server.waitFor();
    await expect(server.innerText()).resolves.toContain(`${comfy.url} — Reachable`);
    await expect(server.innerText()).resolves.toContain('ComfyUI 0.3.64');
    await expect(page.getByTestId('previews-off').innerText()).resolves.toContain('--preview-method auto');
    await expect(page.getByTestId('missing-files').innerText()).resolves.toContain(
      'models/checkpoints/noobai-xl/noobai-xl-vpred-1.0.safetensors',
    );
    await expect(page.getByTestId('missing-files').innerText()).resolves.not.toContain('animagine-xl-4.0');
    await page.getByRole('button', { name: 'Check again' }).click();
    await page.getByRole('button', { name: 'Check again' }).waitFor();
    await screenshot(page, 'engine-status-admin');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();

    const other = await openPage(suite.browser, suite.server.baseUrl, { viewport: { width: 390, height: 844 } });
    await signUp(other.page, uniqueEmail('not-admin'));
    await other.page.goto('/admin/engines');
    await other.page.getByRole('alert').waitFor();
    await expect(other.page.getByRole('alert').innerText()).resolves.toContain('ENGINE_ADMIN_EMAILS');
    await expect(other.page.getByRole('button', { name: 'Check again' }).count()).resolves.toBe(0);
    await screenshot(other.page, 'engine-status-refused-phone');
    await other.context.close();
  });

  it('marks models without a file as unavailable in the model tab', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'model-tab');
    await page.getByTestId('tab-model').click();
    const missing = page.getByTestId('model-noobaixl');
    await expect.poll(() => missing.isDisabled()).toBe(true);
    await expect(missing.innerText()).resolves.toContain('Unavailable');
    await expect(missing.getAttribute('title')).resolves.toBe(
      'No ComfyUI server has models/checkpoints/noobai-xl/noobai-xl-vpred-1.0.safetensors',
    );
    await expect(page.getByTestId('model-animaginexl4.0').isDisabled()).resolves.toBe(false);
    // FLUX routes to the builtin engine here, so it stays available.
    await expect(page.getByTestId('model-fluxdev').isDisabled()).resolves.toBe(false);
    // The selected SDXL model runs on that server, which sends no step previews.
    await page.getByTestId('model-animaginexl4.0').click();
    await expect(page.getByTestId('previews-off-note').innerText()).resolves.toBe(
      'Previews are off on this server: the picture shows when it is done.',
    );
    await screenshot(page, 'engine-model-tab-unavailable');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});
