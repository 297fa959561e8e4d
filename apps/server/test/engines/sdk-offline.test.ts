/**
 * The official SDKs must not reach the network by being imported or constructed (Koma runs offline with the
 * builtin engine, and a fresh process must not call home): a child process records every socket and DNS
 * lookup while it imports `openai` and `@fal-ai/client` and builds a client of each.
 */
import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = `
const { default: net } = await import('node:net');
const { default: dns } = await import('node:dns');
const seen = [];
const { default: tls } = await import('node:tls');
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) { seen.push('connect'); return connect.apply(this, args); };
for (const [mod, name] of [[net, 'connect'], [net, 'createConnection'], [tls, 'connect']]) {
  const original = mod[name];
  mod[name] = (...args) => { seen.push(name); return original(...args); };
}
const lookup = dns.lookup;
dns.lookup = (...args) => { seen.push('dns ' + args[0]); return lookup(...args); };
const realFetch = globalThis.fetch;
globalThis.fetch = (...args) => { seen.push('fetch ' + String(args[0])); return realFetch(...args); };
const { default: OpenAI } = await import('openai');
const { createFalClient } = await import('@fal-ai/client');
new OpenAI({ apiKey: 'sk-test' });
createFalClient({ credentials: 'id:secret', suppressLocalCredentialsWarning: true });
await new Promise((r) => setTimeout(r, 300));
console.log(JSON.stringify(seen));
`;

describe('the engine SDKs offline', () => {
  it('neither import nor construction opens a connection', () => {
    const cwd = dirname(fileURLToPath(import.meta.url));
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd,
      env: { PATH: process.env.PATH ?? '' },
      encoding: 'utf8',
    });
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual([]);
  });
});
