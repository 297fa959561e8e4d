/**
 * A load generator that costs the shared cores as little as it can: node:http with one keep-alive agent, bodies
 * serialised once, replies read as bytes and parsed only when the caller needs a field. `fetch` (undici) with a
 * timeout signal and a JSON parse per reply cost the API process's neighbour as much CPU as a GET costs the API.
 */
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export interface LeanReply {
  status: number;
  body: Buffer;
}

export function leanRequest(
  base: string,
  method: 'GET' | 'PUT' | 'POST',
  path: string,
  cookie: string,
  body?: Buffer,
): Promise<LeanReply> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      base + path,
      {
        method,
        agent,
        headers: {
          cookie,
          ...(body ? { 'content-type': 'application/json', 'content-length': body.length } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    request.setTimeout(60_000, () => request.destroy(new Error('timeout')));
    request.on('error', reject);
    request.end(body);
  });
}

export function closeLeanAgent(): void {
  agent.destroy();
}
