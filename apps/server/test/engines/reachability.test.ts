/**
 * engineReachability: the "can each configured engine take a job now" answer readiness checks and metrics use.
 * Every engine against its fake, a server that is down, one that refuses the credentials, one that never answers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEngineRouter, engineReachability, parseEngineConfig } from '../../src/engines/index.ts';
import { FakeComfyUI } from './fakes/fake-comfyui.ts';
import { FAL_KEY, FakeFal } from './fakes/fake-fal.ts';
import { FakeOpenAI, OPENAI_KEY } from './fakes/fake-openai.ts';
import { closeServer, listen } from './fakes/http-util.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

/** A URL nothing listens on. */
async function deadUrl(): Promise<string> {
  const dead = await listen(() => Promise.resolve());
  await closeServer(dead.server);
  return dead.url;
}

const env = { FAL_KEY, OPENAI_API_KEY: OPENAI_KEY, COMFY_TOKEN: 'sekrit' };

describe('engineReachability', () => {
  it('answers for every configured engine, a ComfyUI being reachable when one of its servers is', async () => {
    const comfy = await new FakeComfyUI().start();
    const fal = await new FakeFal().start();
    const openai = await new FakeOpenAI().start();
    cleanups.push(
      () => comfy.close(),
      () => fal.close(),
      () => openai.close(),
    );
    const down = await deadUrl();
    const router = createEngineRouter(
      parseEngineConfig({
        default: 'builtin',
        comfyui: { servers: [down, comfy.url] },
        fal: { baseUrl: fal.url },
        openai: { baseUrl: openai.url },
      }),
      env,
    );
    const answer = await engineReachability(router, { maxAgeMs: 0 });
    expect(answer.map((e) => [e.id, e.reachable])).toEqual([
      ['builtin', true],
      ['comfyui', true],
      ['fal', true],
      ['openai', true],
    ]);
    const servers = answer.find((e) => e.id === 'comfyui')?.targets;
    expect(servers?.map((s) => [s.url, s.reachable, s.code])).toEqual([
      [down, false, 'engine_unreachable'],
      [comfy.url, true, undefined],
    ]);
    // No job was submitted anywhere.
    expect(comfy.requests.filter((r) => r.method === 'POST')).toEqual([]);
    expect(fal.requests.filter((r) => r.method === 'POST')).toEqual([]);
    expect(openai.calls).toEqual([]);
  });

  it('names what is wrong: a ComfyUI that is down, a refused token, a bad OpenAI key, a fal host that is gone', async () => {
    const comfy = await new FakeComfyUI({ auth: { bearer: 'other' } }).start();
    const openai = await new FakeOpenAI().start();
    cleanups.push(
      () => comfy.close(),
      () => openai.close(),
    );
    const down = await deadUrl();
    const downRouter = createEngineRouter(
      parseEngineConfig({ default: 'builtin', comfyui: { servers: [down] }, fal: { baseUrl: down } }),
      env,
    );
    const [, comfyDown, falDown] = await engineReachability(downRouter, { maxAgeMs: 0 });
    expect(comfyDown).toMatchObject({ id: 'comfyui', reachable: false, code: 'engine_unreachable' });
    expect(comfyDown?.detail).toContain(`ComfyUI at ${down} is unreachable`);
    expect(falDown).toMatchObject({ id: 'fal', reachable: false, code: 'engine_unreachable' });

    const authRouter = createEngineRouter(
      parseEngineConfig({
        default: 'builtin',
        comfyui: { servers: [{ url: comfy.url, tokenEnv: 'COMFY_TOKEN' }] },
        openai: { baseUrl: openai.url },
      }),
      { ...env, OPENAI_API_KEY: 'sk-wrong' },
    );
    const [, comfyAuth, openaiAuth] = await engineReachability(authRouter, { maxAgeMs: 0 });
    expect(comfyAuth).toMatchObject({ id: 'comfyui', reachable: false, code: 'engine_auth' });
    expect(openaiAuth).toMatchObject({ id: 'openai', reachable: false, code: 'engine_auth' });
    expect(openaiAuth?.detail).toContain('Incorrect API key provided');
  });

  it('gives up on a server that never answers at the time limit, as a timeout', async () => {
    const silent = await listen(() => new Promise(() => undefined));
    cleanups.push(() => closeServer(silent.server));
    const router = createEngineRouter(parseEngineConfig({ default: 'builtin', comfyui: { servers: [silent.url] } }));
    const started = Date.now();
    const [, comfy] = await engineReachability(router, { timeoutMs: 300, maxAgeMs: 0 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(comfy).toMatchObject({ id: 'comfyui', reachable: false, code: 'timeout' });
  });

  it('shares one answer for maxAgeMs, so a busy readiness loop makes one request per engine', async () => {
    const comfy = await new FakeComfyUI().start();
    cleanups.push(() => comfy.close());
    const router = createEngineRouter(parseEngineConfig({ default: 'builtin', comfyui: { servers: [comfy.url] } }));
    const probes = () => comfy.requests.filter((r) => r.method === 'GET' && r.path === '/prompt').length;
    await Promise.all([engineReachability(router), engineReachability(router), engineReachability(router)]);
    expect(probes()).toBe(1);
    await engineReachability(router, { maxAgeMs: 0 });
    expect(probes()).toBe(2);
  });
});
