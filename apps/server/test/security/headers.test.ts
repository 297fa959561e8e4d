// Browser-grade headers (issue #20 item 7) on every kind of response the server gives: the app's HTML, its assets,
// JSON, errors, images and the NDJSON job streams (which write their own head).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, DOCS_CONTENT_SECURITY_POLICY } from '../../src/http/security-headers.ts';
import { LiveServer, User, pngDataUrl } from '../jobs/helpers.ts';

const EVERYWHERE = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

describe('security headers', () => {
  let server: LiveServer;
  let user: User;

  beforeAll(async () => {
    server = new LiveServer();
    // A built web app of its own, so the HTML and asset responses are tested without building the real one.
    const web = path.join(server.dataDir, 'web');
    fs.mkdirSync(path.join(web, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><script type="module" src="/assets/a.js"></script>');
    fs.writeFileSync(path.join(web, 'assets', 'a.js'), 'console.log(1)');
    server.config.webDist = web;
    await server.start();
    user = await User.signUp(server);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    server?.destroy();
  });

  function headersOf(res: Response): Record<string, string> {
    return Object.fromEntries([...res.headers.entries()]);
  }

  it('sends the policy and nosniff on HTML, client routes, assets, JSON, errors and images', async () => {
    const { id } = (await (await user.post('/api/image', { encoded: await pngDataUrl(), fileType: 'png' })).json()) as {
      id: string;
    };
    const urls = ['/', '/editor/abc', '/assets/a.js', '/api/auth/me', '/api/nope', `/api/images/${id}`];
    for (const url of urls) {
      const res = await user.fetch(url);
      expect(res.status, url).toBeLessThan(500);
      expect(headersOf(res), url).toMatchObject(EVERYWHERE);
    }
    const anonymous = await fetch(`${server.base}/api/auth/me`);
    expect(anonymous.status).toBe(401);
    expect(headersOf(anonymous)).toMatchObject(EVERYWHERE);
  });

  it('sends them on a job stream, which writes its own head', async () => {
    const stream = await user.open('POST', '/api/diffusion/txt2img', {
      model: 'aamxl',
      prompt: 'a lighthouse',
      width: 512,
      height: 512,
      steps: 2,
      num_images: 1,
    });
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/ndjson/);
    for (const [name, value] of Object.entries(EVERYWHERE)) expect(stream.res.headers[name], name).toBe(value);
    await stream.all();
  });

  it('lets the API documentation page use inline styles, and nothing else more', async () => {
    const res = await user.fetch('/api/docs/');
    expect(res.status).toBeLessThan(400);
    expect(res.headers.get('content-security-policy')).toBe(DOCS_CONTENT_SECURITY_POLICY);
    expect(DOCS_CONTENT_SECURITY_POLICY).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(DOCS_CONTENT_SECURITY_POLICY.replace(" 'unsafe-inline'", '')).toBe(CONTENT_SECURITY_POLICY);
  });

  it('forbids inline script, framing, plugins and foreign bases in the policy itself', () => {
    const directives = new Map(
      CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)] as const),
    );
    // WebAssembly may be compiled (the export's blend kernel); JavaScript may not be evaluated.
    expect(directives.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|'unsafe-eval'|\*/);
  });

  it('adds HSTS only when the request came over HTTPS through a trusted proxy', async () => {
    const plain = await user.fetch('/api/auth/me');
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    // Without TRUST_PROXY a forwarded protocol is not believed.
    const forged = await user.fetch('/api/auth/me', { headers: { 'x-forwarded-proto': 'https' } });
    expect(forged.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('security headers behind a trusted proxy', () => {
  let server: LiveServer;
  beforeAll(async () => {
    server = new LiveServer(undefined, { TRUST_PROXY: 'true' });
    await server.start();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    server?.destroy();
  });

  it('adds HSTS when the proxy says the request came over HTTPS', async () => {
    const res = await fetch(`${server.base}/api/auth/me`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });
});
