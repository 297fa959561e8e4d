// Starts the real Koma server on a free port with a fresh data folder, the way production runs it: the built
// apps/server/dist/main.js (rebuilt first when a source is newer), serving the built web app from apps/web/dist on
// the same origin. Starting from the build rather than tsx also saves each spec file a TypeScript compile.
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT, WEB_DIST } from './paths.ts';

export interface RunningServer {
  baseUrl: string;
  port: number;
  dataDir: string;
  /** Everything the server printed, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

export interface StartServerOptions {
  env?: Record<string, string>;
  /** How long to wait for GET /api/health (ms). */
  startTimeoutMs?: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

const SERVER_DIR = path.join(REPO_ROOT, 'apps', 'server');
const SERVER_MAIN = path.join(SERVER_DIR, 'dist', 'main.js');
/** What the server build compiles in (the workspaces are bundled). */
const SERVER_SOURCES = ['apps/server/src', 'packages/domain/src', 'packages/editor/src'].map((dir) =>
  path.join(REPO_ROOT, dir),
);

function newestChange(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(file) : statSync(file).mtimeMs);
  }
  return newest;
}

/** Builds apps/server/dist when it is missing or older than a source, so a spec never runs a stale server. */
function ensureServerBuilt(): void {
  const built = existsSync(SERVER_MAIN) ? statSync(SERVER_MAIN).mtimeMs : 0;
  if (built >= Math.max(...SERVER_SOURCES.map(newestChange))) return;
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { cwd: SERVER_DIR, stdio: 'pipe' });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForHealth(baseUrl: string, child: ChildProcess, timeoutMs: number, output: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`The server exited with code ${child.exitCode} before it was healthy:\n${output()}`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`The server was not healthy after ${timeoutMs} ms:\n${output()}`);
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) {
    throw new Error(
      `${WEB_DIST}/index.html is missing: run "npm run build -w @koma/web" first (npm run test -w @koma/e2e does).`,
    );
  }
  ensureServerBuilt();
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'koma-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--enable-source-maps', SERVER_MAIN], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // Each spec signs in several times within a minute; the production limit would lock it out.
      SIGNIN_RATE_LIMIT: '1000',
      // Fast password hashing for the many sign-ups of the suite (production uses 2^17).
      PASSWORD_SCRYPT_LOG2N: '14',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: stop() signals the group, so nothing the server started outlives it.
    detached: true,
  });
  let log = '';
  const append = (chunk: Buffer) => {
    log += chunk.toString();
    if (log.length > 200_000) log = log.slice(-100_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const output = () => log;

  const stop = async () => {
    if (child.exitCode === null && child.pid !== undefined) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      const timedOut = await Promise.race([exited.then(() => false), sleep(12_000).then(() => true)]);
      if (timedOut) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(baseUrl, child, options.startTimeoutMs ?? 90_000, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, port, dataDir, output, stop };
}
