import { createWorkspaceData, type WorkspaceData } from '@koma/domain';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFlowImage } from '../src/repositories/flow-images.ts';
import { createBackend, type BackendName, type TestBackend } from './support/backends.ts';
import { TestClient } from './support/client.ts';
import { makePng, makeWebp } from './support/images.ts';

function idSource(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

function comicData(): WorkspaceData {
  return createWorkspaceData('COMIC', idSource('c'));
}

const backends: BackendName[] = ['sqlite', 'postgres'];

describe.each(backends)('API on %s', (backendName) => {
  let backend: TestBackend;
  let app: FastifyInstance;

  beforeAll(async () => {
    backend = await createBackend(backendName, { MAX_IMAGE_PIXELS: '4000000', STARTING_CREDITS: '100' });
    app = await backend.start();
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await backend?.destroy();
  });

  const client = () => new TestClient(app);

  describe('accounts and sessions', () => {
    it('signs up with the starting grant, an httpOnly SameSite cookie, and reads itself back', async () => {
      const c = client();
      const response = await c.post('/api/auth/signup', {
        email: 'Ann@Example.com',
        password: 'a-long-passphrase',
        name: 'Ann',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        user: {
          id: expect.any(String),
          email: 'ann@example.com',
          name: 'Ann',
          plan: 'free',
          restrictedMode: false,
          credits: 100,
          purchasedCredits: 0,
        },
      });
      const cookie = response.cookies.find((k) => k.name === 'koma_session');
      expect(cookie?.httpOnly).toBe(true);
      expect(cookie?.sameSite).toBe('Lax');
      const me = await c.get('/api/auth/me');
      expect(me.statusCode).toBe(200);
      expect((me.json() as { user: { email: string } }).user.email).toBe('ann@example.com');
    });

    it('reads the session without an error when signed out (GET /api/auth/session)', async () => {
      const c = client();
      const out = await c.get('/api/auth/session');
      expect(out.statusCode).toBe(200);
      expect(out.json()).toEqual({ user: null });
      await c.signUp('session@example.com');
      const signedIn = await c.get('/api/auth/session');
      expect(signedIn.statusCode).toBe(200);
      expect((signedIn.json() as { user: { email: string } }).user.email).toBe('session@example.com');
    });

    it('signs out, after which the old cookie is refused', async () => {
      const c = client();
      await c.signUp('out@example.com');
      const oldCookie = c.cookie!;
      expect((await c.post('/api/auth/signout')).statusCode).toBe(204);
      const again = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: oldCookie } });
      expect(again.statusCode).toBe(401);
      expect(again.json()).toMatchObject({ error: 'unauthorized' });
    });

    it('signs in with the right password only', async () => {
      await client().signUp('bob@example.com', 'hunter22hunter');
      const wrong = await client().post('/api/auth/signin', { email: 'bob@example.com', password: 'nope-nope' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toMatchObject({ error: 'invalid_credentials' });
      const unknown = await client().post('/api/auth/signin', { email: 'nobody@example.com', password: 'whatever1' });
      expect(unknown.statusCode).toBe(401);
      const c = client();
      const right = await c.post('/api/auth/signin', { email: 'BOB@example.com', password: 'hunter22hunter' });
      expect(right.statusCode).toBe(200);
      expect((await c.get('/api/credits')).json()).toEqual({ credits: 100, purchasedCredits: 0 });
    });

    it('refuses short passwords, bad emails and a second account on one email', async () => {
      const short = await client().post('/api/auth/signup', { email: 'short@example.com', password: 'elevenchars' });
      expect(short.statusCode).toBe(400);
      expect(short.json()).toMatchObject({
        error: 'weak_password',
        field: 'password',
        message: 'password: must be at least 12 characters',
      });
      const bad = await client().post('/api/auth/signup', { email: 'not-an-email', password: 'a-long-passphrase' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ message: expect.stringContaining('email') });
      await client().signUp('twice@example.com');
      const twice = await client().post('/api/auth/signup', {
        email: 'twice@example.com',
        password: 'a-long-passphrase',
      });
      expect(twice.statusCode).toBe(409);
      expect(twice.json()).toMatchObject({ error: 'email_taken' });
    });

    it('answers 401 on every owned resource when not signed in', async () => {
      for (const url of ['/api/workspaces', '/api/credits', '/api/preferences', '/api/image?id=abc']) {
        const response = await client().get(url);
        expect(response.statusCode, url).toBe(401);
        expect(response.json()).toMatchObject({ error: 'unauthorized' });
      }
    });

    it('reads a workspace only with a live session of its owner (session and head checked in one query)', async () => {
      const owner = client();
      await owner.signUp('reader@example.com');
      const { id } = (await owner.post('/api/workspace', { name: 'Mine', data: comicData() })).json() as { id: string };
      expect((await owner.get(`/api/workspace/${id}`)).statusCode).toBe(200);
      expect((await client().get(`/api/workspace/${id}`)).statusCode).toBe(401);
      const other = client();
      await other.signUp('other-reader@example.com');
      expect((await other.get(`/api/workspace/${id}`)).json()).toMatchObject({ error: 'not_found' });
      expect((await other.get('/api/workspace/..%2F..%2Fetc')).statusCode).toBe(400);
      const oldCookie = owner.cookie!;
      await owner.post('/api/auth/signout');
      const after = await app.inject({ method: 'GET', url: `/api/workspace/${id}`, headers: { cookie: oldCookie } });
      expect(after.statusCode).toBe(401);
      expect(after.json()).toMatchObject({ error: 'unauthorized' });
    });

    it('refuses a state-changing request from another origin and changes nothing', async () => {
      const c = client();
      await c.signUp('origin@example.com');
      const foreign = await c.post(
        '/api/workspace',
        { name: 'x', data: comicData() },
        { origin: 'https://evil.example' },
      );
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json()).toMatchObject({ error: 'forbidden_origin' });
      expect((await c.get('/api/workspaces')).json()).toMatchObject({ total: 0 });
      const same = await c.post('/api/workspace', { name: 'x', data: comicData() }, { origin: 'http://localhost:80' });
      expect(same.statusCode).toBe(201);
    });
  });

  describe('workspaces', () => {
    it('creates, reads, lists, renames, duplicates and deletes', async () => {
      const c = client();
      await c.signUp('ws@example.com');
      const data = comicData();
      const created = await c.post('/api/workspace', { name: 'My comic', data });
      expect(created.statusCode).toBe(201);
      const { id } = created.json() as { id: string };

      const got = await c.get(`/api/workspace/${id}`);
      expect(got.statusCode).toBe(200);
      expect(got.json()).toEqual({ name: 'My comic', type: 'COMIC', revision: 1, data });

      const infinite = await c.post('/api/workspace', {
        name: 'Canvas',
        data: createWorkspaceData('INFINITE', idSource('i')),
      });
      const infiniteId = (infinite.json() as { id: string }).id;
      expect((await c.get(`/api/workspace/${infiniteId}`)).json()).toMatchObject({ type: 'INFINITE' });

      const list = (await c.get('/api/workspaces')).json() as { items: { id: string; name: string }[]; total: number };
      expect(list).toMatchObject({ page: 1, pageSize: 50, total: 2 });
      expect(list.items.map((w) => w.id)).toEqual([infiniteId, id]);
      expect(list.items[1]).toEqual({
        id,
        name: 'My comic',
        type: 'COMIC',
        thumbnailUrl: null,
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        revision: 1,
      });

      expect((await c.patch(`/api/workspace/${id}`, { name: 'Renamed' })).json()).toEqual({ id, name: 'Renamed' });
      const dup = await c.post(`/api/workspace/${id}/duplicate`);
      expect(dup.statusCode).toBe(201);
      const dupId = (dup.json() as { id: string }).id;
      expect((await c.get(`/api/workspace/${dupId}`)).json()).toEqual({
        name: 'Renamed (copy)',
        type: 'COMIC',
        revision: 1,
        data,
      });

      expect((await c.delete(`/api/workspace/${id}`)).statusCode).toBe(204);
      expect((await c.get(`/api/workspace/${id}`)).statusCode).toBe(404);
      expect((await c.delete(`/api/workspace/${id}`)).statusCode).toBe(404);
      expect((await c.get(`/api/workspace/${dupId}`)).statusCode).toBe(200);
    });

    it('paginates the list and refuses page sizes over 500', async () => {
      const c = client();
      await c.signUp('pages@example.com');
      for (let i = 0; i < 5; i++) await c.post('/api/workspace', { name: `w${i}`, data: comicData() });
      const page2 = (await c.get('/api/workspaces?page=2&pageSize=2')).json() as { items: { name: string }[] };
      expect(page2).toMatchObject({ page: 2, pageSize: 2, total: 5 });
      expect(page2.items).toHaveLength(2);
      const all = (await c.get('/api/workspaces')).json() as { items: { name: string }[] };
      expect(all.items.map((w) => w.name)).toEqual(['w4', 'w3', 'w2', 'w1', 'w0']);
      expect((await c.get('/api/workspaces?pageSize=501')).statusCode).toBe(400);
      expect((await c.get('/api/workspaces?page=0')).statusCode).toBe(400);
    });

    it('refuses a stale revision with 409, lets a save without revision win, and restores old revisions', async () => {
      const c = client();
      await c.signUp('rev@example.com');
      const v1 = comicData();
      const { id } = (await c.post('/api/workspace', { name: 'r', data: v1 })).json() as { id: string };

      const v2 = { ...comicData(), lastPage: 0, viewTransform: { x: 5, y: 6, zoom: 2 } };
      const saved = await c.put(`/api/workspace/${id}`, { data: v2, revision: 1 });
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toMatchObject({ revision: 2 });

      // A second tab still thinks it is at revision 1.
      const v3 = { ...comicData(), viewTransform: { x: 9, y: 9, zoom: 3 } };
      const stale = await c.put(`/api/workspace/${id}`, { data: v3, revision: 1 });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({ error: 'revision_conflict', message: expect.any(String), revision: 2 });
      expect((await c.get(`/api/workspace/${id}`)).json()).toMatchObject({ revision: 2, data: v2 });

      const blind = await c.put(`/api/workspace/${id}`, { data: v3 });
      expect(blind.json()).toMatchObject({ revision: 3 });

      const revisions = (await c.get(`/api/workspace/${id}/revisions`)).json() as { items: { revision: number }[] };
      expect(revisions.items.map((r) => r.revision)).toEqual([3, 2, 1]);

      const restored = await c.post(`/api/workspace/${id}/revisions/1/restore`);
      expect(restored.json()).toEqual({ revision: 4 });
      expect((await c.get(`/api/workspace/${id}`)).json()).toMatchObject({ revision: 4, data: v1 });
      expect((await c.post(`/api/workspace/${id}/revisions/99/restore`)).statusCode).toBe(404);
    });

    it('never lets two concurrent saves with the same revision both succeed', async () => {
      const c = client();
      await c.signUp('race@example.com');
      const { id } = (await c.post('/api/workspace', { name: 'race', data: comicData() })).json() as { id: string };
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          c.put(`/api/workspace/${id}`, {
            data: { ...comicData(), viewTransform: { x: i, y: 0, zoom: 1 } },
            revision: 1,
          }),
        ),
      );
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(results.filter((r) => r.statusCode === 409)).toHaveLength(7);
      expect((await c.get(`/api/workspace/${id}`)).json()).toMatchObject({ revision: 2 });
    });

    it('stores thumbnails at the spec size and returns one URL per page', async () => {
      const c = client();
      await c.signUp('thumb@example.com');
      const data = comicData();
      const second = createWorkspaceData('COMIC', idSource('p2')).pages[0]!;
      data.pages.push(second);
      data.lastPage = 1;
      const { id } = (await c.post('/api/workspace', { name: 't', data })).json() as { id: string };
      const thumbnail = (await makeWebp(300, 400)).toString('base64');
      const saved = await c.put(`/api/workspace/${id}`, { data, thumbnail });
      expect(saved.statusCode).toBe(200);
      const { thumbnailUrls } = saved.json() as { thumbnailUrls: string[] };
      expect(thumbnailUrls).toHaveLength(2);
      expect(thumbnailUrls[0]).toBe('');
      expect(thumbnailUrls[1]).toMatch(/^\/api\/images\/[A-Za-z0-9_-]+$/);
      const image = await c.get(thumbnailUrls[1]!);
      expect(image.headers['content-type']).toBe('image/webp');
      const meta = await sharp(image.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 512, 720]);
      const list = (await c.get('/api/workspaces')).json() as { items: { thumbnailUrl: string | null }[] };
      expect(list.items[0]?.thumbnailUrl).toBe(thumbnailUrls[1]);

      const canvas = await c.post('/api/workspace', {
        name: 'inf',
        data: createWorkspaceData('INFINITE', idSource('q')),
        thumbnail,
      });
      const canvasId = (canvas.json() as { id: string }).id;
      const canvasSave = await c.put(`/api/workspace/${canvasId}`, {
        data: createWorkspaceData('INFINITE', idSource('q')),
      });
      const canvasUrls = (canvasSave.json() as { thumbnailUrls: string[] }).thumbnailUrls;
      expect(canvasUrls).toHaveLength(1);
      const canvasMeta = await sharp((await c.get(canvasUrls[0]!)).rawPayload).metadata();
      expect([canvasMeta.width, canvasMeta.height]).toEqual([768, 512]);
    });
  });

  describe('ownership', () => {
    it("answers 404 to user B for every call on user A's workspace and image", async () => {
      const a = client();
      const b = client();
      await a.signUp('owner-a@example.com');
      await b.signUp('owner-b@example.com');
      const data = comicData();
      const { id } = (await a.post('/api/workspace', { name: 'mine', data })).json() as { id: string };
      const png = (await makePng()).toString('base64');
      const imageId = ((await a.post('/api/image', { encoded: png, fileType: 'png' })).json() as { id: string }).id;

      const attempts = [
        await b.get(`/api/workspace/${id}`),
        await b.put(`/api/workspace/${id}`, { data: comicData() }),
        await b.patch(`/api/workspace/${id}`, { name: 'stolen' }),
        await b.post(`/api/workspace/${id}/duplicate`),
        await b.get(`/api/workspace/${id}/revisions`),
        await b.post(`/api/workspace/${id}/revisions/1/restore`),
        await b.delete(`/api/workspace/${id}`),
        await b.get(`/api/image?id=${imageId}`),
        await b.get(`/api/images/${imageId}`),
        await b.get(`/api/images/${imageId}/thumbnail`),
        await b.get(`/api/images/${imageId}/scaled/256`),
      ];
      for (const response of attempts) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ error: 'not_found' });
      }
      expect((await b.get('/api/workspaces')).json()).toMatchObject({ total: 0 });
      expect((await a.get(`/api/workspace/${id}`)).json()).toEqual({ name: 'mine', type: 'COMIC', revision: 1, data });
    });
  });

  describe('images', () => {
    it('uploads, looks up and serves an image with its type and cache headers', async () => {
      const c = client();
      await c.signUp('img@example.com');
      const png = await makePng(64, 48);
      const uploaded = await c.post('/api/image', {
        encoded: `data:image/png;base64,${png.toString('base64')}`,
        fileType: 'png',
      });
      expect(uploaded.statusCode).toBe(201);
      const { id } = uploaded.json() as { id: string };
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      const lookup = await c.get(`/api/image?id=${id}`);
      expect(lookup.json()).toEqual({ url: `/api/images/${id}` });
      const bytes = await c.get(`/api/images/${id}`);
      expect(bytes.statusCode).toBe(200);
      expect(bytes.headers['content-type']).toBe('image/png');
      expect(bytes.headers['cache-control']).toBe('private, max-age=31536000, immutable');
      // Stored re-encoded (only the pixels are kept), so the same pixels rather than the same bytes.
      const served = await sharp(bytes.rawPayload).raw().toBuffer();
      expect(Buffer.compare(served, await sharp(png).raw().toBuffer())).toBe(0);

      const thumb = await c.get(`/api/images/${id}/thumbnail`);
      expect(thumb.headers['content-type']).toBe('image/jpeg');
      const meta = await sharp(thumb.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 256, 256]);
    });

    it('serves scaled copies that fit each side, and the image itself when it is no larger', async () => {
      const c = client();
      await c.signUp('scaled@example.com');
      const upload = async (png: Buffer) =>
        ((await c.post('/api/image', { encoded: png.toString('base64'), fileType: 'png' })).json() as { id: string })
          .id;
      const opaque = await upload(await makePng(1024, 400));
      const clear = { r: 0, g: 0, b: 0, alpha: 0 };
      const transparent = await upload(
        await sharp({ create: { width: 400, height: 1024, channels: 4, background: clear } })
          .png()
          .toBuffer(),
      );
      const photo = (
        (
          await c.post('/api/image', {
            encoded: (
              await sharp(await makePng(1024, 400))
                .jpeg()
                .toBuffer()
            ).toString('base64'),
            fileType: 'jpeg',
          })
        ).json() as { id: string }
      ).id;
      for (const [id, side, format, width, height] of [
        [opaque, 256, 'png', 256, 100],
        [opaque, 512, 'png', 512, 200],
        [photo, 512, 'jpeg', 512, 200],
        [transparent, 256, 'png', 100, 256],
      ] as const) {
        const scaled = await c.get(`/api/images/${id}/scaled/${side}`);
        expect(scaled.statusCode).toBe(200);
        expect(scaled.headers['content-type']).toBe(`image/${format}`);
        expect(scaled.headers['cache-control']).toBe('private, max-age=31536000, immutable');
        const meta = await sharp(scaled.rawPayload).metadata();
        expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual([
          format,
          width,
          height,
          id === transparent,
        ]);
      }
      // A flat colour of a PNG stays exactly that colour in its copy (a JPEG copy shifted pure red to 255, 1, 0).
      const red = await upload(
        await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#ff0000' } })
          .png()
          .toBuffer(),
      );
      const redCopy = await c.get(`/api/images/${red}/scaled/512`);
      const { data } = await sharp(redCopy.rawPayload).raw().toBuffer({ resolveWithObject: true });
      expect([...data.subarray(0, 3)]).toEqual([255, 0, 0]);
      expect(data.every((v, i) => v === (i % 3 === 0 ? 255 : 0))).toBe(true);
      const small = await upload(await makePng(200, 100));
      const same = await c.get(`/api/images/${small}/scaled/256`);
      expect(same.headers['content-type']).toBe('image/png');
      expect(Buffer.compare(same.rawPayload, (await c.get(`/api/images/${small}`)).rawPayload)).toBe(0);
      // An image stored before the copies existed gets its copy on first request, and keeps it.
      await app.koma.blobs.delete(`${opaque}.s256`);
      const remade = await c.get(`/api/images/${opaque}/scaled/256`);
      expect((await sharp(remade.rawPayload).metadata()).width).toBe(256);
      expect(await app.koma.blobs.get(`${opaque}.s256`)).not.toBeNull();
      // Only the kept sides.
      expect((await c.get(`/api/images/${opaque}/scaled/300`)).statusCode).toBe(400);
    });

    it("resolves many ids to their URLs in one call, leaving out others' and unknown ones", async () => {
      const a = client();
      const b = client();
      await a.signUp('urls-a@example.com');
      await b.signUp('urls-b@example.com');
      const png = (await makePng()).toString('base64');
      const upload = async (c: ReturnType<typeof client>) =>
        ((await c.post('/api/image', { encoded: png, fileType: 'png' })).json() as { id: string }).id;
      const mine = [await upload(a), await upload(a)];
      const theirs = await upload(b);
      const answer = await a.post('/api/image/urls', { ids: [...mine, theirs, 'neverStored', mine[0]] });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({
        urls: Object.fromEntries(mine.map((id) => [id, `/api/images/${id}`])),
      });
      for (const id of mine) expect((await a.get(`/api/image?id=${id}`)).json()).toEqual({ url: `/api/images/${id}` });
      const bad = await a.post('/api/image/urls', { ids: ['../x'] });
      expect(bad.statusCode).toBe(400);
      expect(JSON.stringify(bad.json())).toContain('ids');
      expect((await a.post('/api/image/urls', { ids: [] })).statusCode).toBe(400);
    });

    it('stores what the bytes are, whatever fileType says', async () => {
      const c = client();
      await c.signUp('hint@example.com');
      const png = (await makePng()).toString('base64');
      const { id } = (await c.post('/api/image', { encoded: png, fileType: 'jpeg' })).json() as { id: string };
      expect((await c.get(`/api/images/${id}`)).headers['content-type']).toBe('image/png');
    });

    it('refuses non-images, corrupt images, and images over the pixel limit', async () => {
      const c = client();
      await c.signUp('badimg@example.com');
      const text = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>').toString('base64');
      const notImage = await c.post('/api/image', { encoded: text, fileType: 'png' });
      expect(notImage.statusCode).toBe(400);
      expect(notImage.json()).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('encoded') });

      const png = await makePng(200, 200);
      const truncated = await c.post('/api/image', {
        encoded: png.subarray(0, png.length / 2).toString('base64'),
        fileType: 'png',
      });
      expect(truncated.statusCode).toBe(400);

      // 2500×2000 = 5 Mpx of one colour compresses to a few KB but is over this suite's 4 Mpx limit.
      const bomb = await sharp({ create: { width: 2500, height: 2000, channels: 3, background: '#000' } })
        .png({ compressionLevel: 9 })
        .toBuffer();
      expect(bomb.length).toBeLessThan(100_000);
      const refused = await c.post('/api/image', { encoded: bomb.toString('base64'), fileType: 'png' });
      expect(refused.statusCode).toBe(413);

      const notBase64 = await c.post('/api/image', { encoded: '%%%not base64%%%', fileType: 'png' });
      expect(notBase64.statusCode).toBe(400);
      const badType = await c.post('/api/image', { encoded: png.toString('base64'), fileType: 'gif' });
      expect(badType.statusCode).toBe(400);
      expect(badType.json()).toMatchObject({ message: expect.stringContaining('fileType') });
    });
  });

  describe('credits', () => {
    it('never goes negative under 50 concurrent charges', async () => {
      const c = client();
      const user = await c.signUp('credits@example.com');
      const { ledger } = app.koma;
      await ledger.purchase(user.id, 5, 'test purchase');
      // 100 granted + 5 purchased = 105; 50 charges of 3 = 150 asked, so exactly 35 can pass.
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) => ledger.charge(user.id, 3, 'generation', `job-${i}`)),
      );
      const passed = results.filter((r) => r.status === 'fulfilled');
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(passed).toHaveLength(35);
      expect(failed).toHaveLength(15);
      for (const f of failed) expect(f.reason).toMatchObject({ statusCode: 400, code: 'not_enough_credits' });
      expect((await c.get('/api/credits')).json()).toEqual({ credits: 0, purchasedCredits: 0 });
      const history = await ledger.history(user.id, 500);
      const total = history.reduce((sum, row) => sum + Number(row.credits_delta) + Number(row.purchased_delta), 0);
      expect(total).toBe(0);
    });

    it('charges plan credits first and refunds into the buckets it took from, at most once', async () => {
      const c = client();
      const user = await c.signUp('refund@example.com');
      const { ledger } = app.koma;
      await ledger.purchase(user.id, 50, 'pack');
      expect(await ledger.charge(user.id, 120, 'gpt', 'job-a')).toEqual({ credits: 0, purchasedCredits: 30 });
      const first = await ledger.refund(user.id, 120, 'job failed', 'job-a');
      expect(first).toEqual({ refunded: 120, balance: { credits: 100, purchasedCredits: 50 } });
      const second = await ledger.refund(user.id, 120, 'job failed', 'job-a');
      expect(second.refunded).toBe(0);
      expect(await ledger.balance(user.id)).toEqual({ credits: 100, purchasedCredits: 50 });
      await expect(ledger.charge(user.id, 151, 'too much', 'job-b')).rejects.toMatchObject({
        code: 'not_enough_credits',
      });
      await expect(ledger.charge(user.id, -1, 'negative', 'job-c')).rejects.toMatchObject({ statusCode: 400 });
      expect(await ledger.balance(user.id)).toEqual({ credits: 100, purchasedCredits: 50 });
    });
    it('charges inside a caller transaction that rolls back as a whole', async () => {
      const c = client();
      const user = await c.signUp('within@example.com');
      const { ledger, database } = app.koma;
      await expect(
        database.db.transaction().execute(async (trx) => {
          await ledger.chargeWithin(trx, user.id, 40, 'job', 'job-rolled-back');
          throw new Error('job insert failed');
        }),
      ).rejects.toThrow('job insert failed');
      expect(await ledger.balance(user.id)).toEqual({ credits: 100, purchasedCredits: 0 });
      await database.db.transaction().execute((trx) => ledger.chargeWithin(trx, user.id, 40, 'job', 'job-kept'));
      expect(await ledger.balance(user.id)).toEqual({ credits: 60, purchasedCredits: 0 });
      const { refunded } = await database.db
        .transaction()
        .execute((trx) => ledger.refundWithin(trx, user.id, 40, 'failed', 'job-kept'));
      expect(refunded).toBe(40);
      expect(await ledger.balance(user.id)).toEqual({ credits: 100, purchasedCredits: 0 });
    });
  });

  describe('preferences and flow images', () => {
    it('returns defaults, stores valid preferences and refuses invalid ones', async () => {
      const c = client();
      await c.signUp('prefs@example.com');
      const defaults = (await c.get('/api/preferences')).json() as { preferences: Record<string, unknown> };
      expect(defaults.preferences).toMatchObject({
        locale: 'en',
        fps: 60,
        editorLayout: { leftWidth: 280, rightWidth: 320, leftOpen: true, rightOpen: true },
      });
      // The editor's sidebars are remembered within their limits; a width out of range is refused by name.
      const narrow = await c.put('/api/preferences', { preferences: { editorLayout: { leftWidth: 20 } } });
      expect(narrow.statusCode).toBe(400);
      expect(narrow.json()).toMatchObject({ message: expect.stringContaining('leftWidth') });
      const put = await c.put('/api/preferences', { preferences: { locale: 'ja', fps: 30, preferredFont: 'Bangers' } });
      expect(put.statusCode).toBe(200);
      const bad = await c.put('/api/preferences', { preferences: { locale: 'fr' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ message: expect.stringContaining('locale') });
      expect((await c.get('/api/preferences')).json()).toMatchObject({
        preferences: { locale: 'ja', fps: 30, preferredFont: 'Bangers' },
      });
    });

    it('lists the flow images of a variation for their owner only', async () => {
      const a = client();
      const b = client();
      const userA = await a.signUp('flow-a@example.com');
      await b.signUp('flow-b@example.com');
      const generationData = { prompt: 'a cat', seed: 7, model_name: 'sdxl' };
      await recordFlowImage(app.koma.database.db, userA.id, { variationId: 'var-1', generationData });
      await recordFlowImage(app.koma.database.db, userA.id, { variationId: 'var-2', generationData });
      expect((await a.get('/api/flow_images/?variationId=var-1')).json()).toEqual({
        userImages: [{ variationId: 'var-1', generationData }],
      });
      expect((await b.get('/api/flow_images/?variationId=var-1')).json()).toEqual({ userImages: [] });
      expect((await a.get('/api/flow_images/')).statusCode).toBe(400);
    });

    it('looks up the newest flow image of many variations in one call, for their owner only', async () => {
      const a = client();
      const b = client();
      const userA = await a.signUp('flow-many-a@example.com');
      const userB = await b.signUp('flow-many-b@example.com');
      const older = { prompt: 'older', seed: 1 };
      const newer = { prompt: 'newer', seed: 2 };
      const db = app.koma.database.db;
      await recordFlowImage(db, userA.id, { variationId: 'm-1', generationData: older }, new Date('2026-01-01'));
      await recordFlowImage(db, userA.id, { variationId: 'm-1', generationData: newer }, new Date('2026-01-02'));
      await recordFlowImage(db, userA.id, { variationId: 'm-2', generationData: older });
      await recordFlowImage(db, userB.id, { variationId: 'm-3', generationData: older });
      const answer = await a.post('/api/flow_images/lookup', { variationIds: ['m-1', 'm-2', 'm-3', 'none', 'm-1'] });
      expect(answer.statusCode).toBe(200);
      const userImages = (answer.json() as { userImages: { variationId: string }[] }).userImages;
      expect([...userImages].sort((x, y) => x.variationId.localeCompare(y.variationId))).toEqual([
        { variationId: 'm-1', generationData: newer },
        { variationId: 'm-2', generationData: older },
      ]);
      // The one-variation call lists the same newest entry first.
      expect((await a.get('/api/flow_images/?variationId=m-1')).json()).toMatchObject({
        userImages: [{ generationData: newer }, { generationData: older }],
      });
      for (const body of [{ variationIds: [] }, { variationIds: [''] }, { variationIds: 'm-1' }, {}]) {
        const bad = await a.post('/api/flow_images/lookup', body);
        expect(bad.statusCode).toBe(400);
        expect(JSON.stringify(bad.json())).toContain('variationIds');
      }
      const tooMany = Array.from({ length: 1001 }, (_, i) => `v${i}`);
      expect((await a.post('/api/flow_images/lookup', { variationIds: tooMany })).statusCode).toBe(400);
    });
  });

  describe('bad input leaves stored data unchanged', () => {
    it('refuses malformed JSON, wrong types, invalid documents, huge bodies, unknown and path-like ids', async () => {
      const c = client();
      await c.signUp('bad@example.com');
      const data = comicData();
      const { id } = (await c.post('/api/workspace', { name: 'safe', data })).json() as { id: string };
      const before = (await c.get(`/api/workspace/${id}`)).body;

      const malformed = await c.put(`/api/workspace/${id}`, '{"data": {', {});
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({ error: 'invalid_request' });

      const wrongType = await c.put(`/api/workspace/${id}`, { data, revision: 'two' });
      expect(wrongType.statusCode).toBe(400);
      expect(wrongType.json()).toMatchObject({ message: expect.stringContaining('revision') });

      const invalidDoc = await c.put(`/api/workspace/${id}`, { data: { ...data, rootLayer: { type: 'NOPE' } } });
      expect(invalidDoc.statusCode).toBe(400);
      expect(invalidDoc.json()).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('data') });

      const noData = await c.put(`/api/workspace/${id}`, { thumbnail: 'abc' });
      expect(noData.statusCode).toBe(400);

      const badThumb = await c.put(`/api/workspace/${id}`, {
        data,
        thumbnail: Buffer.from('not an image').toString('base64'),
      });
      expect(badThumb.statusCode).toBe(400);
      expect(badThumb.json()).toMatchObject({ message: expect.stringContaining('thumbnail') });

      const huge = await c.put(`/api/workspace/${id}`, JSON.stringify({ data, pad: 'x'.repeat(20 * 1024 * 1024) }));
      expect(huge.statusCode).toBe(413);
      expect(huge.json()).toMatchObject({ error: 'payload_too_large' });
      const hugeImage = await c.post(
        '/api/image',
        JSON.stringify({ encoded: 'A'.repeat(20 * 1024 * 1024), fileType: 'png' }),
      );
      expect(hugeImage.statusCode).toBe(413);

      expect((await c.get('/api/workspace/doesNotExist123')).statusCode).toBe(404);
      expect((await c.put('/api/workspace/doesNotExist123', { data })).statusCode).toBe(404);
      expect((await c.get('/api/image?id=doesNotExist123')).statusCode).toBe(404);
      for (const pathLike of ['..%2F..%2Fetc%2Fpasswd', '..', 'a.b', '%2Fetc%2Fpasswd']) {
        const ws = await c.put(`/api/workspace/${pathLike}`, { data });
        expect(ws.statusCode, pathLike).toBeGreaterThanOrEqual(400);
        expect(ws.statusCode, pathLike).toBeLessThan(500);
        const img = await c.get(`/api/images/${pathLike}`);
        expect(img.statusCode, pathLike).toBeGreaterThanOrEqual(400);
        expect(img.statusCode, pathLike).toBeLessThan(500);
        const q = await c.get(`/api/image?id=${pathLike}`);
        expect(q.statusCode, pathLike).toBeGreaterThanOrEqual(400);
        expect(q.statusCode, pathLike).toBeLessThan(500);
      }

      expect((await c.get(`/api/workspace/${id}`)).body).toBe(before);
      expect((await c.get(`/api/workspace/${id}/revisions`)).json()).toMatchObject({ items: [{ revision: 1 }] });
      expect((await c.get('/api/workspaces')).json()).toMatchObject({ total: 1 });
    });
  });

  describe('restart', () => {
    it('loses nothing: session, workspace, revisions, image and credits survive', async () => {
      const c = client();
      const user = await c.signUp('restart@example.com');
      const data = comicData();
      const { id } = (await c.post('/api/workspace', { name: 'keep me', data })).json() as { id: string };
      await c.put(`/api/workspace/${id}`, { data, revision: 1 });
      const png = await makePng(32, 32);
      const imageId = (
        (await c.post('/api/image', { encoded: png.toString('base64'), fileType: 'png' })).json() as { id: string }
      ).id;
      await app.koma.ledger.charge(user.id, 7, 'generation', 'job-restart');

      await app.close();
      app = await backend.start();
      c.app = app;

      expect((await c.get('/api/auth/me')).statusCode).toBe(200);
      expect((await c.get(`/api/workspace/${id}`)).json()).toEqual({
        name: 'keep me',
        type: 'COMIC',
        revision: 2,
        data,
      });
      expect(((await c.get(`/api/workspace/${id}/revisions`)).json() as { items: unknown[] }).items).toHaveLength(2);
      expect(Buffer.compare((await c.get(`/api/images/${imageId}`)).rawPayload, png)).toBe(0);
      expect((await c.get('/api/credits')).json()).toEqual({ credits: 93, purchasedCredits: 0 });
    }, 30_000);
  });
});
