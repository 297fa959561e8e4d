/** One NDJSON event of a job stream (docs/api-generation.md). */
export type JobEvent = Record<string, unknown> & { status: string };

export interface Reply<T = unknown> {
  status: number;
  body: T;
}

/**
 * A signed-in caller over real HTTP (fetch, loopback) with its own session cookie, as a browser tab would be.
 * `base` may change between calls (a round-robin proxy, or a chosen API process).
 */
export class HttpUser {
  cookie = '';
  id = '';

  constructor(public base: string) {}

  async signUp(email: string, password = 'correct horse battery'): Promise<Reply> {
    const reply = await this.call('POST', '/api/auth/signup', { email, password });
    if (reply.status === 201) this.id = (reply.body as { user: { id: string } }).user.id;
    return reply;
  }

  async call<T = unknown>(method: string, url: string, body?: unknown, base = this.base): Promise<Reply<T>> {
    const response = await fetch(base + url, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(120_000),
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie?.startsWith('koma_session=')) this.cookie = setCookie.split(';')[0] ?? '';
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as T };
  }

  /**
   * Posts a job (or GETs a job's events) and reads its NDJSON stream. `onEvent` may return true to stop reading
   * early (the connection is dropped, the job keeps running on the server).
   */
  async stream(
    method: 'GET' | 'POST',
    url: string,
    body?: unknown,
    options: { base?: string; onEvent?: (event: JobEvent) => boolean | void; timeoutMs?: number } = {},
  ): Promise<{ status: number; events: JobEvent[]; error?: unknown }> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 180_000);
    try {
      const response = await fetch((options.base ?? this.base) + url, {
        method,
        headers: { 'content-type': 'application/json', cookie: this.cookie },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: controller.signal,
      });
      if (response.status !== 200 || !response.body) {
        const text = await response.text();
        return { status: response.status, events: [], error: text ? (JSON.parse(text) as unknown) : undefined };
      }
      const events: JobEvent[] = [];
      const decoder = new TextDecoder();
      let buffer = '';
      const reader = response.body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let nl;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          if (line === '') continue;
          const event = JSON.parse(line) as JobEvent;
          events.push(event);
          if (options.onEvent?.(event) === true) {
            controller.abort();
            return { status: 200, events };
          }
        }
      }
      return { status: 200, events };
    } finally {
      clearTimeout(timer);
    }
  }
}
