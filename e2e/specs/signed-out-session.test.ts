// Opening the app before signing in asks who is signed in without an error: the answer "nobody" is a 200, not a 401
// the browser logs as a failed resource (it showed on every run of bench:chapter and of any spec that signs up).
import { describe, expect, it } from 'vitest';
import { openPage } from '../support/browser.ts';
import { signUp, uniqueEmail } from '../support/flows.ts';
import { useServerAndBrowser } from '../support/suite.ts';

const suite = useServerAndBrowser();

describe('the session read before sign-in', () => {
  it('answers signed out without a failed request or a console error, and signed in after sign-up', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl);
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
    await signUp(page, uniqueEmail('signed-out'));
    // Signed in, a reload reads the session and stays on the dashboard.
    await page.reload();
    await page.waitForURL('**/dashboard');
    await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
    expect(failed).toEqual([]);
    expect(problems.errors).toEqual([]);
    await context.close();
  });
});
