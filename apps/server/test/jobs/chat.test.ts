import http from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { last, LiveServer, User } from './helpers.ts';

// Prompt expansion through an OpenAI-compatible chat endpoint (a local fake speaking the same protocol).
const seen: { auth: string | undefined; body: { model: string; messages: { role: string; content: string }[] } }[] = [];
let reply = '';
const fake = http.createServer((req, res) => {
  let text = '';
  req.on('data', (c: Buffer) => (text += c.toString()));
  req.on('end', () => {
    seen.push({ auth: req.headers.authorization, body: JSON.parse(text) as (typeof seen)[number]['body'] });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: reply } }] }));
  });
});

const server = new LiveServer();
let user: User;

beforeAll(async () => {
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  const { port } = fake.address() as { port: number };
  await server.start({
    jobs: {
      config: { chat: { url: `http://127.0.0.1:${port}/v1/chat/completions`, apiKey: 'sk-test', model: 'tiny' } },
    },
  });
  user = await User.signUp(server);
});

afterAll(async () => {
  await server.close();
  server.destroy();
  fake.close();
});

test('asks the chat endpoint for num_sequences prompts and moderates what comes back', async () => {
  reply =
    'Here you go:\n["a cat samurai in the rain, ink wash", "a cat samurai at dawn, nude", "Donald Trump as a cat samurai"]';
  const { status, events } = await user.run('/api/prompt_expansion', { prompt: 'a cat samurai', num_sequences: 3 });
  expect(status).toBe(200);
  const output = last(events)?.output as { prompts: string[]; engine: string };
  expect(output.engine).toBe('chat');
  // The nsfw word is stripped; the public figure's variant is dropped.
  expect(output.prompts).toHaveLength(2);
  expect(output.prompts[0]).toBe('a cat samurai in the rain, ink wash');
  expect(output.prompts[1]).not.toMatch(/nude/);
  expect(seen[0]?.auth).toBe('Bearer sk-test');
  expect(seen[0]?.body.model).toBe('tiny');
  expect(seen[0]?.body.messages.at(-1)?.content).toContain('Give 3 expansions of: a cat samurai');
});

test('a reply without prompts fails the job (free, nothing to refund)', async () => {
  reply = '';
  const { events } = await user.run('/api/prompt_expansion', { prompt: 'a cat samurai', num_sequences: 2 });
  expect(last(events)).toMatchObject({ status: 'FAILED', code: 'engine_failed' });
  expect(await user.balance()).toBe(100);
});
