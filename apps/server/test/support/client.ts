import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** An injected response whose JSON is `unknown` until a test says what it expects. */
export type ApiResponse = Omit<LightMyRequestResponse, 'json'> & { json(): unknown };

/** A browser-like caller of app.inject that keeps the session cookie between requests. */
export class TestClient {
  cookie: string | undefined;

  constructor(public app: FastifyInstance) {}

  async request(
    method: Method,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse> {
    const raw = typeof body === 'string' || Buffer.isBuffer(body);
    const response = await this.app.inject({
      method,
      url,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...headers,
      },
      ...(body !== undefined ? { payload: raw ? body : JSON.stringify(body) } : {}),
    });
    const setCookie = response.cookies.find((c) => c.name === 'koma_session');
    if (setCookie) this.cookie = setCookie.value ? `koma_session=${setCookie.value}` : undefined;
    return response;
  }

  get(url: string) {
    return this.request('GET', url);
  }
  post(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('POST', url, body, headers);
  }
  put(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('PUT', url, body, headers);
  }
  patch(url: string, body?: unknown) {
    return this.request('PATCH', url, body);
  }
  delete(url: string) {
    return this.request('DELETE', url);
  }

  /** Signs up (which also signs in) and returns the user. */
  async signUp(email: string, password = 'correct horse'): Promise<{ id: string; credits: number }> {
    const response = await this.post('/api/auth/signup', { email, password });
    if (response.statusCode !== 201) throw new Error(`signup failed: ${response.body}`);
    return (response.json() as { user: { id: string; credits: number } }).user;
  }
}
