// The dashboard when things go wrong or grow: failed calls explain themselves and lose nothing, the keyboard
// reaches every action, and more than one page of workspaces is reachable.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createWorkspaceData } from '@koma/domain';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors, signUp, uniqueEmail } from '../support/flows.ts';
import { useServerAndBrowser } from '../support/suite.ts';

const suite = useServerAndBrowser();

describe('dashboard resilience', () => {
  it('explains a failed list and a failed create, and recovers without a reload', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl);
    await signUp(page, uniqueEmail('resilience'));

    await page.route('**/api/workspaces?*', (route) => route.abort('connectionrefused'));
    await page.reload();
    const listAlert = page.getByRole('alert').filter({ hasText: 'Could not load your workspaces' });
    await expect.poll(() => listAlert.isVisible()).toBe(true);
    expect(await listAlert.innerText()).toContain('The server could not be reached');
    await screenshot(page, 'dashboard-list-failed');
    await page.unroute('**/api/workspaces?*');
    await listAlert.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => page.getByText('No workspaces yet.', { exact: false }).isVisible()).toBe(true);

    await page.route('**/api/workspace', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'internal', message: 'Disk full' }),
      }),
    );
    await page.getByRole('button', { name: /New comic/ }).click();
    const createAlert = page.getByRole('alert').filter({ hasText: 'Could not create the workspace' });
    await expect.poll(() => createAlert.isVisible()).toBe(true);
    expect(await createAlert.innerText()).toContain('Disk full');
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    // Spec §8: the failure is logged as "Failed to create workspace: {status}".
    expect(realErrors(problems.errors)).toContain('Failed to create workspace: 500');
    await page.unroute('**/api/workspace');
    await page.getByRole('button', { name: /New comic/ }).click();
    await page.waitForURL(/\/editor\//);
    await context.close();
  });

  it('reaches rename with the keyboard, and Escape gives the focus back to the button', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl);
    await signUp(page, uniqueEmail('keyboard'));
    await page.request.post('/api/workspace', {
      data: { name: 'Keyboard comic', type: 'COMIC', data: newComicData() },
    });
    await page.reload();
    const rename = page.getByRole('button', { name: 'Rename' });
    await expect.poll(() => rename.isVisible()).toBe(true);

    // Tab from the top of the page until the Rename button has the focus.
    let reached = false;
    for (let i = 0; i < 20 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await rename.evaluate((el) => el === document.activeElement);
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    const field = page.getByRole('dialog').getByLabel('Name');
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => rename.evaluate((el) => el === document.activeElement)).toBe(true);

    await page.keyboard.press('Enter');
    await page.keyboard.type('Renamed by keyboard');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('heading', { name: 'Renamed by keyboard' }).isVisible()).toBe(true);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('shows 50 workspaces a page and the rest behind "Show more"', async () => {
    const { context, page } = await openPage(suite.browser, suite.server.baseUrl);
    await signUp(page, uniqueEmail('many'));
    const data = newComicData();
    for (let i = 1; i <= 51; i++) {
      const reply = await page.request.post('/api/workspace', { data: { name: `Comic ${i}`, type: 'COMIC', data } });
      expect(reply.status()).toBe(201);
    }
    await page.reload();
    const cards = page.getByTestId('workspace-card');
    await expect.poll(() => cards.count()).toBe(50);
    expect(await page.getByText('50 of 51').isVisible()).toBe(true);
    expect(await cards.first().getByRole('heading').innerText()).toBe('Comic 51');
    await page.getByRole('button', { name: 'Show more' }).click();
    await expect.poll(() => cards.count()).toBe(51);
    expect(await cards.last().getByRole('heading').innerText()).toBe('Comic 1');
    expect(await page.getByRole('button', { name: 'Show more' }).count()).toBe(0);
    await context.close();
  });
});

/** A valid new comic document, made by the same domain factory the app uses. */
function newComicData(): unknown {
  return createWorkspaceData('COMIC', () => randomUUID());
}
