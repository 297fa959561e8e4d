// Debian's Chromium driven by playwright-core (never a downloaded browser build), with the flags this machine
// needs: no sandbox as root, and no background networking (the network is closed and Chromium would retry).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ARTIFACTS_DIR } from './paths.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** `extraArgs`: more Chromium switches after these (a bench's `--js-flags=--expose-gc`). */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...extraArgs,
    ],
  });
}

export interface PageProblems {
  /** console.error lines and uncaught exceptions seen on the page. */
  errors: string[];
  /** Requests that left 127.0.0.1: the app must need no CDN. */
  external: string[];
}

/** A fresh context (own cookies) and page, recording console errors and any request to another host. */
export async function openPage(
  browser: Browser,
  baseUrl: string,
  options: {
    viewport?: { width: number; height: number };
    locale?: string;
    isMobile?: boolean;
    /** A touch screen (a tablet is touch without isMobile); defaults to isMobile. */
    hasTouch?: boolean;
  } = {},
): Promise<{ context: BrowserContext; page: Page; problems: PageProblems }> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: options.viewport ?? { width: 1280, height: 800 },
    locale: options.locale ?? 'en-US',
    isMobile: options.isMobile ?? false,
    hasTouch: options.hasTouch ?? options.isMobile ?? false,
  });
  const page = await context.newPage();
  const problems: PageProblems = { errors: [], external: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') problems.errors.push(message.text());
  });
  page.on('pageerror', (error) => problems.errors.push(`pageerror: ${error.message}`));
  const origin = new URL(baseUrl).origin;
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) problems.external.push(url);
  });
  return { context, page, problems };
}

/** Saves a full-page screenshot to e2e/artifacts/{name}.png and returns its path (for a human to look at). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
