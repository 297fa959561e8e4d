import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.ts';
import { startServer, type RunningServer, type StartServerOptions } from './server.ts';

export interface Suite {
  readonly server: RunningServer;
  readonly browser: Browser;
}

/**
 * A real server and a headless Chromium for the tests of one spec file: started before them, stopped after. Read
 * `server` and `browser` inside tests (they throw before `beforeAll` has run).
 */
export function useServerAndBrowser(options: StartServerOptions & { slowEngine?: boolean } = {}): Suite {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let configDir: string | undefined;
  beforeAll(async () => {
    const { slowEngine, ...serverOptions } = options;
    if (slowEngine) {
      // The builtin engine at 150 ms per step, one job at a time: queue and progress stay visible long enough to watch.
      configDir = mkdtempSync(path.join(tmpdir(), 'koma-e2e-engines-'));
      const config = path.join(configDir, 'engines.json');
      writeFileSync(config, JSON.stringify({ builtin: { stepDelayMs: 150 } }));
      serverOptions.env = { ENGINES_CONFIG: config, JOB_CONCURRENCY_BUILTIN: '1', ...serverOptions.env };
    }
    server = await startServer(serverOptions);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });
  return {
    get server() {
      if (!server) throw new Error('The server starts in beforeAll; read it inside a test.');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('The browser starts in beforeAll; read it inside a test.');
      return browser;
    },
  };
}
