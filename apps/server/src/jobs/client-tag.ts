import { invalidRequest } from '../http/errors.ts';

/** Large enough for the editor's tag with two 4,000-character prompts in Japanese, small beside an inline image. */
export const MAX_CLIENT_TAG_BYTES = 64 * 1024;

/**
 * Takes the optional `client` object off a submitted body. The rest is the request; the tag is kept with the job
 * as JSON and handed back by the job listings, so a client can tell what the job was for (the editor stores which
 * document and layer). The server never reads it.
 */
export function splitClientTag(body: unknown): { body: unknown; client: string | null } {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('client' in body)) {
    return { body, client: null };
  }
  const { client, ...rest } = body as Record<string, unknown>;
  if (client === undefined || client === null) return { body: rest, client: null };
  if (typeof client !== 'object' || Array.isArray(client)) throw invalidRequest('client: must be an object');
  const text = JSON.stringify(client);
  if (Buffer.byteLength(text, 'utf8') > MAX_CLIENT_TAG_BYTES) {
    throw invalidRequest(`client: must be at most ${MAX_CLIENT_TAG_BYTES} bytes of JSON`);
  }
  return { body: rest, client: text };
}
