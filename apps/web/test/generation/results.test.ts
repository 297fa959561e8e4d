import { describe, expect, it, vi } from 'vitest';
import { Results, type FlowImageFinder } from '../../src/generation/results.ts';
import { ApiError } from '../../src/api/ApiError.ts';

const entry = (variationId: string, engine: string) => ({ variationId, generationData: { engine, prompt: 'p' } });

/** Lets the queued lookups and their promise chains run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('Results recipe lookups', () => {
  it('asks for the variations of one pass in one batch call, and remembers the answers', async () => {
    const finder: FlowImageFinder = {
      find: vi.fn(() => Promise.reject(new Error('not used'))),
      lookup: vi.fn((ids: string[]) =>
        Promise.resolve({ userImages: ids.filter((id) => id !== 'none').map((id) => entry(id, 'builtin')) }),
      ),
    };
    const results = new Results(finder);
    for (const id of ['a', 'b', 'none', 'a']) expect(results.engineOf(id)).toBeUndefined();
    await settle();
    expect(finder.lookup).toHaveBeenCalledTimes(1);
    expect(finder.lookup).toHaveBeenCalledWith(['a', 'b', 'none']);
    expect(results.engineOf('a')).toBe('builtin');
    expect(results.recipe('b')).toMatchObject({ engine: 'builtin', prompt: 'p' });
    expect(results.recipe('none')).toBeNull();
    await settle();
    expect(finder.lookup).toHaveBeenCalledTimes(1);
    expect(finder.find).not.toHaveBeenCalled();
  });

  it('falls back to one call per variation on a server without the batch call (404), and stays there', async () => {
    const finder: FlowImageFinder = {
      find: vi.fn((id: string) => Promise.resolve({ userImages: [entry(id, 'comfy')] })),
      lookup: vi.fn(() =>
        Promise.reject(new ApiError(404, 'not_found', 'Route POST:/api/flow_images/lookup not found')),
      ),
    };
    const results = new Results(finder);
    results.recipe('a');
    results.recipe('b');
    await settle();
    await settle();
    expect(finder.find).toHaveBeenCalledTimes(2);
    expect(results.engineOf('a')).toBe('comfy');
    expect(results.engineOf('b')).toBe('comfy');
    results.recipe('c');
    await settle();
    await settle();
    expect(finder.lookup).toHaveBeenCalledTimes(1);
    expect(finder.find).toHaveBeenCalledTimes(3);
    expect(results.engineOf('c')).toBe('comfy');
  });
});
