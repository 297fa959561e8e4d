import { describe, expect, it } from 'vitest';
import { HttpError } from '../http/errors.ts';
import { MAX_CLIENT_TAG_BYTES, splitClientTag } from './client-tag.ts';

describe('splitClientTag', () => {
  it('takes the tag off the request and keeps it as JSON', () => {
    const tag = { workspaceId: 'w1', job: { op: 'generate', layerId: 'l1' } };
    expect(splitClientTag({ prompt: 'a cat', client: tag })).toEqual({
      body: { prompt: 'a cat' },
      client: JSON.stringify(tag),
    });
  });

  it('leaves a body without a tag as it is', () => {
    const body = { prompt: 'a cat' };
    expect(splitClientTag(body)).toEqual({ body, client: null });
    expect(splitClientTag('text')).toEqual({ body: 'text', client: null });
    expect(splitClientTag({ prompt: 'a cat', client: null })).toEqual({ body: { prompt: 'a cat' }, client: null });
  });

  it('refuses a tag that is not an object, or is too large', () => {
    const refused = (client: unknown) => {
      try {
        splitClientTag({ prompt: 'x', client });
      } catch (error) {
        return error instanceof HttpError ? `${error.statusCode} ${error.code} ${error.message}` : String(error);
      }
      return 'accepted';
    };
    expect(refused('w1')).toBe('400 invalid_request client: must be an object');
    expect(refused([1])).toBe('400 invalid_request client: must be an object');
    expect(refused({ text: 'x'.repeat(MAX_CLIENT_TAG_BYTES) })).toMatch(/^400 invalid_request client: must be at most/);
    expect(refused({ text: 'x'.repeat(1000) })).toBe('accepted');
  });
});
