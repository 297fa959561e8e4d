import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** A free TCP port on loopback (bound, read, released: the window for a clash is tiny). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** One node process of the built server (API, worker or admin tool), its port and its log file. */
export interface NodeProcess {
  name: string;
  child: ChildProcess;
  port: number;
  url: string;
  logFile: string;
  /** Resolves with the exit code (null after a signal) once the process has exited. */
  exited: Promise<number | null>;
  /** SIGTERM, then wait for the exit (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<number | null>;
  /** SIGKILL at once: a crash, as far as everything else can tell. */
  kill9(): Promise<void>;
  /** The log so far. */
  log(): string;
}

export interface StartOptions {
  /** Working directory: apps/server of a production tree. */
  cwd: string;
  /** dist/<entry>.js */
  entry: 'main' | 'worker' | 'admin';
  env: NodeJS.ProcessEnv;
  name: string;
  /** Folder for the log file. */
  logDir: string;
  /** The env variable that carries the HTTP port (PORT for the API, HEALTH_PORT for a worker). */
  portVariable?: string;
  /** Path polled until it answers 200; default /api/health. */
  readyPath?: string;
  readyTimeoutMs?: number;
}

/** Starts `node dist/<entry>.js` and waits until its HTTP port answers `readyPath` with 200. */
export async function startNode(options: StartOptions): Promise<NodeProcess> {
  const port = await freePort();
  const logFile = path.join(options.logDir, `${options.name}.log`);
  fs.mkdirSync(options.logDir, { recursive: true });
  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--enable-source-maps', `dist/${options.entry}.js`], {
    cwd: options.cwd,
    env: { ...options.env, [options.portVariable ?? 'PORT']: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let done = false;
  void exited.then(() => (done = true));
  const url = `http://127.0.0.1:${port}`;
  const proc: NodeProcess = {
    name: options.name,
    child,
    port,
    url,
    logFile,
    exited,
    log: () => fs.readFileSync(logFile, 'utf8'),
    async stop(graceMs = 15_000) {
      if (done) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    async kill9() {
      if (done) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  const readyPath = options.readyPath ?? '/api/health';
  for (;;) {
    if (done) throw new Error(`${options.name} exited before it was ready:\n${proc.log().slice(-3000)}`);
    try {
      const response = await fetch(url + readyPath, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return proc;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await proc.stop(1000);
      throw new Error(`${options.name} was not ready within the time limit:\n${proc.log().slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
