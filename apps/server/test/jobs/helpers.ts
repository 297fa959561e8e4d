import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import sharp from 'sharp';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from '../../src/app.ts';
import { loadConfig, type ServerConfig } from '../../src/config.ts';

/** A server listening on 127.0.0.1 (streams need a real socket) over a temp DATA_DIR that survives restarts. */
export class LiveServer {
  app: FastifyInstance | undefined;
  base = '';
  readonly config: ServerConfig;

  constructor(
    readonly dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'koma-jobs-')),
    env: NodeJS.ProcessEnv = {},
  ) {
    this.config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      SIGNIN_RATE_LIMIT: '1000',
      PASSWORD_SCRYPT_LOG2N: '14',
      ...env,
    });
  }

  /**
   * Starts the server. The job suites check charge arithmetic on the builtin engine, so they run it as a demo of
   * billing would (BUILTIN_CHARGES=true) unless the options say otherwise; by default the builtin engine is free.
   */
  async start(options: BuildOptions = {}): Promise<this> {
    const jobs = { ...options.jobs, config: { builtinCharges: true, ...options.jobs?.config } };
    this.app = await buildApp(this.config, { logger: false, ...options, jobs });
    await this.app.listen({ host: '127.0.0.1', port: 0 });
    const address = this.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    this.base = `http://127.0.0.1:${address.port}`;
    return this;
  }

  async close(): Promise<void> {
    await this.app?.close();
    this.app = undefined;
  }

  destroy(): void {
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }

  get koma() {
    if (!this.app) throw new Error('not started');
    return this.app.koma;
  }
}

/** A signed-in user of a live server. */
export class User {
  cookie = '';
  id = '';
  constructor(readonly server: LiveServer) {}

  static async signUp(server: LiveServer, email = `u${Math.random().toString(36).slice(2)}@example.com`) {
    const user = new User(server);
    const res = await fetch(`${server.base}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct horse battery' }),
    });
    if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${await res.text()}`);
    user.cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    user.id = ((await res.json()) as { user: { id: string } }).user.id;
    return user;
  }

  fetch(url: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${this.server.base}${url}`, {
      ...init,
      headers: { 'content-type': 'application/json', cookie: this.cookie, ...(init.headers ?? {}) },
    });
  }

  post(url: string, body: unknown): Promise<Response> {
    return this.fetch(url, { method: 'POST', body: JSON.stringify(body) });
  }

  async json<T>(url: string): Promise<T> {
    const res = await this.fetch(url);
    return (await res.json()) as T;
  }

  async balance(): Promise<number> {
    const b = await this.json<{ credits: number; purchasedCredits: number }>('/api/credits');
    return b.credits + b.purchasedCredits;
  }

  /** Opens a stream with a raw request so the test can drop the connection mid-way. */
  open(method: 'GET' | 'POST', url: string, body?: unknown): Promise<Stream> {
    return new Promise((resolve, reject) => {
      const target = new URL(`${this.server.base}${url}`);
      const req = http.request(
        target,
        { method, headers: { 'content-type': 'application/json', cookie: this.cookie } },
        (res) => resolve(new Stream(req, res)),
      );
      req.on('error', reject);
      if (body !== undefined) req.write(JSON.stringify(body));
      req.end();
    });
  }

  /** Posts and reads the whole NDJSON stream. */
  async run(url: string, body: unknown): Promise<{ status: number; events: Event[]; body?: unknown }> {
    const stream = await this.open('POST', url, body);
    if (stream.status !== 200) return { status: stream.status, events: [], body: JSON.parse(await stream.text()) };
    return { status: 200, events: await stream.all() };
  }
}

export type Event = Record<string, unknown> & { status: string };

/** An NDJSON response read line by line. */
export class Stream {
  private buffer = '';
  private readonly lines: Event[] = [];
  private waiters: (() => void)[] = [];
  ended = false;

  constructor(
    readonly req: http.ClientRequest,
    readonly res: http.IncomingMessage,
  ) {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        if (line.trim() !== '') this.lines.push(JSON.parse(line) as Event);
      }
      this.wake();
    });
    res.on('end', () => {
      this.ended = true;
      this.wake();
    });
    res.on('close', () => {
      this.ended = true;
      this.wake();
    });
  }

  get status(): number {
    return this.res.statusCode ?? 0;
  }

  get contentType(): string {
    return String(this.res.headers['content-type']);
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  async text(): Promise<string> {
    while (!this.ended) await new Promise<void>((r) => this.waiters.push(r));
    return this.buffer;
  }

  /** Waits for the first event matching `pred` (or throws after `ms`). */
  async until(pred: (e: Event) => boolean, ms = 20_000): Promise<Event> {
    const deadline = Date.now() + ms;
    let seen = 0;
    for (;;) {
      for (; seen < this.lines.length; seen++) if (pred(this.lines[seen]!)) return this.lines[seen]!;
      if (this.ended) throw new Error(`stream ended without a matching event: ${JSON.stringify(this.lines)}`);
      if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(this.lines.slice(-3))}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 50);
      });
    }
  }

  async all(): Promise<Event[]> {
    await this.text();
    return this.lines;
  }

  get events(): readonly Event[] {
    return this.lines;
  }

  /** Drops the connection. */
  drop(): void {
    this.req.destroy();
    this.res.destroy();
  }
}

/** A small PNG as a data URL. */
export async function pngDataUrl(width = 64, height = 64, color = '#88aacc'): Promise<string> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${bytes.toString('base64')}`;
}

export const last = (events: readonly Event[]): Event | undefined => events[events.length - 1];
