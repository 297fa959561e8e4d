import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../src/app.ts';
import { createBackend, type TestBackend } from './support/backends.ts';
import { TestClient } from './support/client.ts';

interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, { requestBody?: unknown; responses?: Record<string, unknown> }>>;
}

describe('the API contract (OpenAPI from the routes’ zod schemas)', () => {
  let backend: TestBackend;
  let app: FastifyInstance;

  beforeAll(async () => {
    backend = await createBackend('sqlite');
    app = await buildWithBrokenRoute(backend);
  });
  afterAll(async () => {
    await app.close();
    await backend.destroy();
  });

  it('serves an OpenAPI 3.1 document at /api/docs/json that describes the routes, bodies and replies', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json<OpenApiDocument>();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Koma API', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    // Fastify's ":id" becomes OpenAPI's "{id}".
    const save = doc.paths['/api/workspace/{id}']?.put;
    expect(JSON.stringify(save?.requestBody)).toContain('"revision"');
    expect(JSON.stringify(save?.responses?.['200'])).toContain('"thumbnailUrls"');
    for (const path of ['/api/auth/signup', '/api/workspaces', '/api/image', '/api/credits', '/api/preferences']) {
      expect(Object.keys(doc.paths), path).toContain(path);
    }
    // The docs' own routes are not part of the contract.
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/docs'))).toEqual([]);
  });

  it('serves browsable docs at /api/docs from the package itself (no CDN)', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).not.toMatch(/https?:\/\/(?:unpkg|cdn|cdnjs)/);
  });

  it('names the field of a request that breaks its schema, nested paths included, and changes nothing', async () => {
    const c = new TestClient(app);
    await c.signUp('contract@example.com');
    const flat = await c.put('/api/workspace/abc', { data: {}, revision: 'two' });
    expect(flat.statusCode).toBe(400);
    expect(flat.json()).toEqual({
      error: 'invalid_request',
      message: 'revision must be a number, not a string',
      field: 'revision',
    });
    const nested = await c.put('/api/preferences', { preferences: { locale: 'xx' } });
    expect(nested.statusCode).toBe(400);
    expect(nested.json()).toEqual({
      error: 'invalid_request',
      message: expect.stringMatching(/^preferences\.locale must be one of /),
      field: 'preferences.locale',
    });
    const query = await c.get('/api/workspaces?pageSize=9999');
    expect(query.json()).toEqual({
      error: 'invalid_request',
      message: expect.stringMatching(/^pageSize must be at most /),
      field: 'pageSize',
    });
    const missing = await c.post('/api/workspace');
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('refuses to send a reply that breaks its own schema (500 in words, nothing of the bad reply leaks)', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test/broken-reply' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'internal_error', message: 'Something went wrong on the server.' });
    expect(response.body).not.toContain('secret');
  });
});

function buildWithBrokenRoute(backend: TestBackend): Promise<FastifyInstance> {
  return buildApp(backend.config, {
    logger: false,
    routes: [
      (app) => {
        app.withTypeProvider<ZodTypeProvider>().get(
          '/api/test/broken-reply',
          { schema: { response: { 200: z.object({ count: z.number() }) } } },
          // A handler that promises a number and hands over a string: the serializer must catch it.
          () => ({ count: 'secret' }) as unknown as { count: number },
        );
      },
    ],
  });
}
