// Page images are compressed band by band from one buffer refilled for every band: each band must have been taken by
// the compressor before the buffer is refilled, or a band's bytes would be the next one's.
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflateBands } from '../../src/export/deflate-bands.ts';

/** `count` bands of `size` bytes, every one in the same buffer, band k filled with a pattern of its own. */
function* refilled(count: number, size: number, expected: Buffer[]): Generator<Uint8Array<ArrayBuffer>> {
  const buffer = new Uint8Array(size);
  for (let k = 0; k < count; k++) {
    for (let i = 0; i < size; i++) buffer[i] = (i * (k + 3) + k * 101) % 251;
    expected.push(Buffer.from(buffer));
    yield buffer;
  }
}

describe('deflateBands', () => {
  it('compresses refilled bands in order into one zlib stream (FlateDecode), handing pieces out as they come', async () => {
    const expected: Buffer[] = [];
    const pieces: Uint8Array[] = [];
    await deflateBands(refilled(12, 300_000, expected), (chunk) => pieces.push(chunk));
    const inflated = inflateSync(Buffer.concat(pieces));
    expect(inflated.length).toBe(12 * 300_000);
    expect(Buffer.compare(inflated, Buffer.concat(expected))).toBe(0);
    // Handed out in pieces, not joined into one buffer at the end.
    expect(pieces.length).toBeGreaterThan(1);
  });

  it('passes a band producer’s failure on, and does not hang', async () => {
    function* failing(): Generator<Uint8Array<ArrayBuffer>> {
      yield new Uint8Array(1000);
      throw new Error('the raster went away');
    }
    await expect(deflateBands(failing(), () => undefined)).rejects.toThrow('the raster went away');
  });
});
