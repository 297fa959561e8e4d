// The web shell against the real server: sign up, the dashboard, creating a comic that opens in the editor,
// the workspace actions, the stored language, signing out and back in, the phone layout, the flow entry.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors, signInWithKeyboard, signUp, uniqueEmail } from '../support/flows.ts';
import { useServerAndBrowser } from '../support/suite.ts';

/** Every card button lies wholly inside its card (a clipped "Delete" is a layout bug, not a style choice). */
async function expectActionsInsideCards(page: Page) {
  const cards = page.getByTestId('workspace-card');
  for (let i = 0; i < (await cards.count()); i++) {
    const card = (await cards.nth(i).boundingBox())!;
    const buttons = cards.nth(i).getByRole('button');
    for (let j = 0; j < (await buttons.count()); j++) {
      const button = (await buttons.nth(j).boundingBox())!;
      expect(button.x).toBeGreaterThanOrEqual(card.x);
      expect(button.x + button.width).toBeLessThanOrEqual(card.x + card.width + 0.5);
      expect(button.height).toBeGreaterThanOrEqual(44);
    }
  }
}

const suite = useServerAndBrowser();

describe('signed out', () => {
  it('sends / to the sign-in page and explains empty fields after a keyboard submit', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl);
    await page.goto('/');
    await page.waitForURL('**/signin');
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in to Koma' }).isVisible()).toBe(true);
    await screenshot(page, 'signin');

    await page.getByLabel('Email').press('Enter');
    await expect.poll(() => page.getByText('Enter your email address.').isVisible()).toBe(true);
    expect(await page.getByText('Enter your password.').isVisible()).toBe(true);
    // The first wrong field gets the focus, so the user can type straight away.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    await screenshot(page, 'signin-errors');

    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByLabel('Password').press('Enter');
    await expect.poll(() => page.getByText('The email or password is not correct.').isVisible()).toBe(true);
    expect(realErrors(problems.errors)).toEqual([]);
    expect(problems.external).toEqual([]);
    await context.close();
  });

  it('keeps a private address for after sign-in', async () => {
    const { context, page } = await openPage(suite.browser, suite.server.baseUrl);
    await page.goto('/dashboard');
    await page.waitForURL(/\/signin\?next=%2Fdashboard$/);
    await context.close();
  });
});

describe('a new account', () => {
  const email = uniqueEmail('shell');
  let comicId = '';

  it('signs up, lands on an empty dashboard with its credits, and creates a comic that opens in the editor', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl);
    await signUp(page, email);
    await expect.poll(() => page.getByText('No workspaces yet.', { exact: false }).isVisible()).toBe(true);
    const credits = await page.getByTestId('credit-total').innerText();
    expect(credits).toMatch(/\d+ credits/);
    await screenshot(page, 'dashboard-empty');

    await page.getByRole('button', { name: /New comic/ }).click();
    await page.waitForURL(/\/editor\/[^/]+$/);
    comicId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const stored = await page.request.get(`/api/workspace/${comicId}`);
    expect(stored.status()).toBe(200);
    const body = (await stored.json()) as { name: string; type: string; data: { pages: unknown[] } };
    expect(body).toMatchObject({ name: 'Untitled comic', type: 'COMIC' });
    expect(body.data.pages).toHaveLength(1);
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'editor-after-create');

    // The same editor answers under the dashboard too.
    await page.goto(`/dashboard/editor/${comicId}`);
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe(`/dashboard/editor/${comicId}`);
    expect(realErrors(problems.errors)).toEqual([]);
    expect(problems.external).toEqual([]);
    await context.close();
  });

  it('lists, renames, duplicates and deletes (after confirmation) on the dashboard', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl);
    await page.goto('/signin');
    await signInWithKeyboard(page, email);
    const cards = page.getByTestId('workspace-card');
    await expect.poll(() => cards.count()).toBe(1);

    await page.getByRole('button', { name: 'New canvas' }).click();
    await page.waitForURL(/\/editor\//);
    await page.goto('/dashboard');
    await expect.poll(() => cards.count()).toBe(2);
    // Newest first: the canvas made a moment ago leads.
    expect(await cards.first().getByRole('heading').innerText()).toBe('Untitled canvas');

    const comic = page.locator(`[data-workspace-id="${comicId}"]`);
    await comic.getByRole('button', { name: 'Rename' }).click();
    const nameField = page.getByRole('dialog').getByLabel('Name');
    await nameField.fill('   ');
    await nameField.press('Enter');
    await expect.poll(() => page.getByText('Enter a name.').isVisible()).toBe(true);
    await nameField.fill('Chapter 1');
    await nameField.press('Enter');
    await expect.poll(() => comic.getByRole('heading').innerText()).toBe('Chapter 1');
    const renamed = (await (await page.request.get(`/api/workspace/${comicId}`)).json()) as { name: string };
    expect(renamed.name).toBe('Chapter 1');

    await comic.getByRole('button', { name: 'Duplicate' }).click();
    await expect.poll(() => cards.count()).toBe(3);

    const canvas = cards.filter({ hasText: 'Untitled canvas' });
    await canvas.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await screenshot(page, 'dashboard-delete-confirm');
    // Escape cancels: nothing is deleted.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await cards.count()).toBe(3);
    await canvas.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete workspace' }).click();
    await expect.poll(() => cards.count()).toBe(2);
    const list = (await (await page.request.get('/api/workspaces?page=1&pageSize=50')).json()) as { total: number };
    expect(list.total).toBe(2);
    await screenshot(page, 'dashboard-cards');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('shows the thumbnail a save stored, and sends an expired session to sign-in and back', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl);
    await page.goto('/signin');
    await signInWithKeyboard(page, email);

    // The editor saves a webp thumbnail with the document; draw one the way it would (a canvas, 512x720).
    const thumbnail = await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 512;
      canvas.height = 720;
      const g = canvas.getContext('2d')!;
      g.fillStyle = '#fff';
      g.fillRect(0, 0, 512, 720);
      g.lineWidth = 8;
      g.strokeRect(33, 33, 446, 300);
      g.fillStyle = '#d7402f';
      g.fillRect(33, 360, 200, 327);
      g.strokeRect(260, 360, 219, 327);
      return canvas.toDataURL('image/webp', 0.8).split(',')[1]!;
    });
    const current = (await (await page.request.get(`/api/workspace/${comicId}`)).json()) as {
      data: unknown;
      revision: number;
    };
    const saved = await page.request.put(`/api/workspace/${comicId}`, {
      data: { data: current.data, thumbnail, revision: current.revision },
    });
    expect(saved.status()).toBe(200);
    await page.reload();
    const image = page.locator(`[data-workspace-id="${comicId}"] img`);
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    await screenshot(page, 'dashboard-thumbnail');

    // The cookie goes away (expired, or signed out elsewhere): the next call answers 401 and the app asks to sign in,
    // keeping the address to come back to.
    await context.clearCookies();
    await page.locator(`[data-workspace-id="${comicId}"]`).getByRole('button', { name: 'Duplicate' }).click();
    await page.waitForURL(/\/signin\?next=%2Fdashboard$/);
    await signInWithKeyboard(page, email);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    expect(realErrors(problems.errors).filter((line) => !line.includes('Failed to duplicate'))).toEqual([]);
    await context.close();
  });

  it('stores the Japanese locale, keeps it across sign-out and sign-in on a fresh browser', async () => {
    // An account of its own, so a failure here cannot leave the other tests' account in Japanese.
    const jaEmail = uniqueEmail('locale');
    const first = await openPage(suite.browser, suite.server.baseUrl);
    await signUp(first.page, jaEmail);
    await first.page.getByLabel('Language').selectOption('ja');
    await expect.poll(() => first.page.getByRole('heading', { name: 'ワークスペース' }).isVisible()).toBe(true);
    expect(await first.page.getByRole('button', { name: 'ログアウト' }).isVisible()).toBe(true);
    expect(await first.page.locator('html').getAttribute('lang')).toBe('ja');
    await expect
      .poll(async () => {
        const reply = await first.page.request.get('/api/preferences');
        return ((await reply.json()) as { preferences: { locale: string } }).preferences.locale;
      })
      .toBe('ja');
    await first.page.waitForLoadState('networkidle');
    await screenshot(first.page, 'dashboard-ja');

    await first.page.getByRole('button', { name: 'ログアウト' }).click();
    await first.page.waitForURL('**/signin');
    await expect.poll(() => first.page.getByRole('heading', { name: 'Koma にログイン' }).isVisible()).toBe(true);
    const me = await first.page.request.get('/api/auth/me');
    expect(me.status()).toBe(401);
    await first.context.close();

    // A new browser has no local memory of the choice: the server preference must bring Japanese back.
    const second = await openPage(suite.browser, suite.server.baseUrl);
    await second.page.goto('/signin');
    // The session check is still running right after load: wait for the form rather than race it.
    await expect.poll(() => second.page.getByRole('heading', { name: 'Sign in to Koma' }).isVisible()).toBe(true);
    await signInWithKeyboard(second.page, jaEmail);
    await expect.poll(() => second.page.getByRole('heading', { name: 'ワークスペース' }).isVisible()).toBe(true);
    expect(realErrors([...first.problems.errors, ...second.problems.errors])).toEqual([]);

    // And back: switching to English is stored the same way.
    await second.page.getByLabel('言語').selectOption('en');
    await expect.poll(() => second.page.getByRole('heading', { name: 'Your workspaces' }).isVisible()).toBe(true);
    await expect
      .poll(async () => {
        const reply = await second.page.request.get('/api/preferences');
        return ((await reply.json()) as { preferences: { locale: string } }).preferences.locale;
      })
      .toBe('en');
    await second.context.close();
  });

  it('lays the dashboard out for a phone', async () => {
    const { context, page } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
    });
    await page.goto('/signin');
    await screenshot(page, 'phone-signin');
    await signInWithKeyboard(page, email);
    await expect.poll(() => page.getByTestId('workspace-card').count()).toBe(2);
    await page.waitForLoadState('networkidle');
    // Nothing may overflow sideways, and the card buttons are touch-sized.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const header = await page.locator('header').boundingBox();
    const signOut = await page.getByRole('button', { name: 'Sign out' }).boundingBox();
    expect(signOut!.x + signOut!.width).toBeLessThanOrEqual(header!.x + header!.width);
    const box = await page.getByTestId('workspace-card').first().getByRole('button', { name: 'Rename' }).boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(44);
    await expectActionsInsideCards(page);
    await screenshot(page, 'phone-dashboard');
    await context.close();

    // Landscape phone (896x414 is within the spec's 480 by 896 too).
    const landscape = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 844, height: 390 },
      isMobile: true,
    });
    await landscape.page.goto('/signin');
    await signInWithKeyboard(landscape.page, email);
    await expect.poll(() => landscape.page.getByTestId('workspace-card').count()).toBe(2);
    expect(await landscape.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(844);
    const tile = await landscape.page.getByRole('button', { name: /New comic/ }).boundingBox();
    expect(tile!.height).toBeGreaterThanOrEqual(44);
    await expectActionsInsideCards(landscape.page);
    await landscape.page.waitForLoadState('networkidle');
    await screenshot(landscape.page, 'phone-landscape-dashboard');
    await landscape.context.close();
  });

  it("makes a language chosen before signing up the new account's preference", async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl);
    await page.goto('/signup');
    await page.getByLabel('Language').selectOption('ja');
    await expect.poll(() => page.getByRole('heading', { name: 'Koma のアカウントを作成' }).isVisible()).toBe(true);
    await page.getByLabel('パスワード').press('Enter');
    await expect.poll(() => page.getByText('メールアドレスを入力してください。').isVisible()).toBe(true);
    await screenshot(page, 'signup-ja-errors');
    await page.getByLabel('メールアドレス').fill(uniqueEmail('ja'));
    await page.getByLabel('パスワード').fill('short');
    await page.getByLabel('パスワード').press('Enter');
    await expect.poll(() => page.getByText('パスワードは12文字以上にしてください。').isVisible()).toBe(true);
    await page.getByLabel('パスワード').fill('long enough password');
    await page.getByRole('button', { name: '新規登録' }).click();
    await page.waitForURL('**/dashboard');
    await expect.poll(() => page.getByRole('heading', { name: 'ワークスペース' }).isVisible()).toBe(true);
    const reply = (await (await page.request.get('/api/preferences')).json()) as { preferences: { locale: string } };
    expect(reply.preferences.locale).toBe('ja');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('answers an unknown flow image with "Could not find flow image"', async () => {
    const { context, page } = await openPage(suite.browser, suite.server.baseUrl);
    await page.goto('/signin');
    await signInWithKeyboard(page, email);
    await page.goto('/flow/no-such-variation');
    await expect.poll(() => page.getByText('Could not find flow image').isVisible()).toBe(true);
    await screenshot(page, 'flow-not-found');
    await context.close();
  });
});
