import { describe, expect, it, vi } from 'vitest';
import {
  DOWNLOAD_RETRY_DELAY_MS,
  SAMPLE_IMAGE_ID,
  downloadFromUrl,
  downloadWithRetry,
  loadImageById,
  loadImageBytesById,
  loadImageBlobById,
  loadScaledImageBlobById,
  resolveImageUrls,
  IMAGE_URLS_MAX,
  localImageUrl,
  readBodyWithProgress,
} from '../src/api/imageLoader.ts';
import type { FetchLike } from '../src/api/http.ts';

const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4, 5, 6]);

function bytesResponse(bytes: Uint8Array, chunk = 3, contentType = 'image/png'): Response {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += chunk) controller.enqueue(bytes.slice(i, i + chunk));
      controller.close();
    },
  });
  return new Response(stream, {
    status: 200,
    headers: { 'Content-Type': contentType, 'Content-Length': String(bytes.length) },
  });
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

function deps(fetch: FetchLike) {
  return { fetch, sleep: vi.fn(() => Promise.resolve()), log: vi.fn(), baseUrl: '' };
}

describe('downloadWithRetry', () => {
  it('reports progress chunk by chunk with the Content-Length total', async () => {
    const progress: [number, number | null][] = [];
    const d = deps(() => Promise.resolve(bytesResponse(PNG_BYTES, 4)));
    const image = await downloadWithRetry('/img.png', (loaded, total) => progress.push([loaded, total]), d);
    expect(Array.from(image.bytes)).toEqual(Array.from(PNG_BYTES));
    expect(image.contentType).toBe('image/png');
    expect(progress).toEqual([
      [4, 10],
      [8, 10],
      [10, 10],
    ]);
    expect(d.sleep).not.toHaveBeenCalled();
  });

  it('retries after an HTTP error and a network error, 2,000 ms apart, and then succeeds', async () => {
    const fetch = vi
      .fn<FetchLike>()
      .mockResolvedValueOnce(new Response('no', { status: 503 }))
      .mockRejectedValueOnce(new TypeError('socket hang up'))
      .mockResolvedValueOnce(bytesResponse(PNG_BYTES));
    const d = deps(fetch);
    const image = await downloadWithRetry('/img.png', undefined, d);
    expect(image.bytes.length).toBe(PNG_BYTES.length);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(d.sleep.mock.calls).toEqual([[DOWNLOAD_RETRY_DELAY_MS], [DOWNLOAD_RETRY_DELAY_MS]]);
    const messages = d.log.mock.calls.map((call) => (call[1] as Error).message);
    expect(messages).toEqual(['HTTP error! status: 503', 'Network error occurred']);
  });

  it('gives up after 5 attempts with the spec message, waiting only between attempts', async () => {
    const fetch = vi.fn<FetchLike>(() => Promise.resolve(new Response('', { status: 404 })));
    const d = deps(fetch);
    const failure = downloadWithRetry('/gone.png', undefined, d);
    await expect(failure).rejects.toThrow('Failed to download image after 5 attempts');
    const error = await rejection(failure);
    expect((error.cause as Error).message).toBe('HTTP error! status: 404');
    expect(fetch).toHaveBeenCalledTimes(5);
    expect(d.sleep).toHaveBeenCalledTimes(4);
  });

  it('really waits between attempts with the default sleep', async () => {
    vi.useFakeTimers();
    try {
      const fetch = vi
        .fn<FetchLike>()
        .mockRejectedValueOnce(new TypeError('down'))
        .mockResolvedValueOnce(bytesResponse(PNG_BYTES));
      const pending = downloadWithRetry('/img.png', undefined, { fetch, log: () => undefined });
      await vi.advanceTimersByTimeAsync(DOWNLOAD_RETRY_DELAY_MS - 1);
      expect(fetch).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      await expect(pending).resolves.toMatchObject({ contentType: 'image/png' });
      expect(fetch).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('downloadFromUrl', () => {
  it('fails once with "Failed to download image" and keeps the HTTP reason as the cause', async () => {
    const fetch = vi.fn<FetchLike>(() => Promise.resolve(new Response('', { status: 500 })));
    const error = await rejection(downloadFromUrl('https://img/x.png', undefined, deps(fetch)));
    expect(error.message).toBe('Failed to download image');
    expect((error.cause as Error).message).toBe('HTTP error! status: 500');
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('readBodyWithProgress', () => {
  it('reports a null total when the server sends no Content-Length', async () => {
    const progress: (number | null)[] = [];
    const response = new Response(new Blob([PNG_BYTES]).stream());
    const bytes = await readBodyWithProgress(response, (_loaded, total) => progress.push(total));
    expect(bytes.length).toBe(10);
    expect(progress.every((t) => t === null)).toBe(true);
  });
});

describe('loadImageBytesById', () => {
  it('resolves with the downloaded bytes and their type, no data URL', async () => {
    const fetch = vi.fn<FetchLike>((input) =>
      Promise.resolve(
        input.startsWith('/api/image')
          ? new Response(JSON.stringify({ url: '/files/abc.png' }), { status: 200 })
          : bytesResponse(PNG_BYTES),
      ),
    );
    const result = await loadImageBytesById('abc', undefined, deps(fetch));
    expect([...(result?.bytes ?? [])]).toEqual([...PNG_BYTES]);
    expect(result?.contentType).toBe('image/png');
  });

  it('asks /api/image once per id when given a map of resolved URLs', async () => {
    const fetch = vi.fn<FetchLike>((input) =>
      Promise.resolve(
        input.startsWith('/api/image')
          ? new Response(JSON.stringify({ url: '/files/abc.png' }), { status: 200 })
          : bytesResponse(PNG_BYTES),
      ),
    );
    const urls = new Map<string, string>();
    await loadImageBytesById('abc', undefined, deps(fetch), urls);
    await loadImageBytesById('abc', undefined, deps(fetch), urls);
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(['/api/image?id=abc', '/files/abc.png', '/files/abc.png']);
  });

  it('logs "Failed to load image" and yields null when the id is unknown', async () => {
    const d = deps(() => Promise.resolve(new Response('{"error":"not_found"}', { status: 404 })));
    await expect(loadImageBytesById('missing', undefined, d)).resolves.toBeNull();
    expect(d.log).toHaveBeenCalledWith('Failed to load image', expect.any(Error));
  });
});

describe('loadImageBlobById', () => {
  it('resolves with a Blob of the body, typed by the response, after a retry', async () => {
    let downloads = 0;
    const fetch = vi.fn<FetchLike>((input) =>
      Promise.resolve(
        input.startsWith('/api/image')
          ? new Response(JSON.stringify({ url: '/files/abc.png' }), { status: 200 })
          : downloads++ === 0
            ? new Response('busy', { status: 503 })
            : bytesResponse(PNG_BYTES),
      ),
    );
    const d = deps(fetch);
    const urls = new Map<string, string>();
    const blob = await loadImageBlobById('abc', d, urls);
    expect(blob?.type).toBe('image/png');
    expect([...new Uint8Array(await blob!.arrayBuffer())]).toEqual([...PNG_BYTES]);
    expect(d.sleep).toHaveBeenCalledWith(DOWNLOAD_RETRY_DELAY_MS);
    expect(urls.get('abc')).toBe('/files/abc.png');
  });

  it('logs "Failed to load image" and yields null when the id is unknown', async () => {
    const d = deps(() => Promise.resolve(new Response('{"error":"not_found"}', { status: 404 })));
    await expect(loadImageBlobById('missing', d)).resolves.toBeNull();
    expect(d.log).toHaveBeenCalledWith('Failed to load image', expect.any(Error));
  });
});

describe('loadScaledImageBlobById', () => {
  it("downloads a stored picture's scaled copy, and a picture served elsewhere whole", async () => {
    const asked: string[] = [];
    const fetch = vi.fn<FetchLike>((input) => {
      asked.push(input);
      return Promise.resolve(bytesResponse(PNG_BYTES, 3, 'image/webp'));
    });
    const urls = new Map([
      ['abc', '/api/images/abc'],
      ['demo', '/demo/cat.png'],
    ]);
    const stored = await loadScaledImageBlobById('abc', 256, deps(fetch), urls);
    expect(stored?.scaled).toBe(true);
    expect(stored?.blob.type).toBe('image/webp');
    const demo = await loadScaledImageBlobById('demo', 256, deps(fetch), urls);
    expect(demo?.scaled).toBe(false);
    expect(asked).toEqual(['/api/images/abc/scaled/256', '/demo/cat.png']);
  });
});

describe('resolveImageUrls', () => {
  it('answers bundled ids locally and asks the server for the rest in one call per thousand', async () => {
    const asked: string[][] = [];
    const fetch = vi.fn<FetchLike>((_input, init) => {
      const { ids } = JSON.parse(init?.body as string) as { ids: string[] };
      asked.push(ids);
      // The server leaves out ids it does not know.
      const urls = Object.fromEntries(ids.filter((id) => id !== 'gone').map((id) => [id, `/api/images/${id}`]));
      return Promise.resolve(new Response(JSON.stringify({ urls }), { status: 200 }));
    });
    const many = Array.from({ length: IMAGE_URLS_MAX + 5 }, (_, i) => `id${i}`);
    const urls = await resolveImageUrls([SAMPLE_IMAGE_ID, 'gone', ...many, 'id0'], deps(fetch));
    expect(fetch.mock.calls.map((c) => [c[0], c[1]?.method])).toEqual([
      ['/api/image/urls', 'POST'],
      ['/api/image/urls', 'POST'],
    ]);
    expect(asked.map((ids) => ids.length)).toEqual([IMAGE_URLS_MAX, 6]);
    expect(urls.get(SAMPLE_IMAGE_ID)).toBe('/demo/sample-wave.svg');
    expect(urls.get('id1004')).toBe('/api/images/id1004');
    expect(urls.has('gone')).toBe(false);
    expect(urls.size).toBe(many.length + 1);
  });

  it('throws on an HTTP error (the caller then looks ids up one by one)', async () => {
    const d = deps(() => Promise.resolve(new Response('{}', { status: 500 })));
    await expect(resolveImageUrls(['a'], d)).rejects.toThrow('HTTP error! status: 500');
  });
});

describe('loadImageById', () => {
  it('asks /api/image for the URL, downloads it and returns a data URL', async () => {
    const fetch = vi.fn<FetchLike>((input) =>
      Promise.resolve(
        input.startsWith('/api/image')
          ? new Response(JSON.stringify({ url: '/files/abc.png' }), { status: 200 })
          : bytesResponse(PNG_BYTES),
      ),
    );
    const result = await loadImageById('abc', undefined, deps(fetch));
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(['/api/image?id=abc', '/files/abc.png']);
    expect(result).toBe(`data:image/png;base64,${Buffer.from(PNG_BYTES).toString('base64')}`);
  });

  it('logs "Failed to load image" and yields an empty string when the id is unknown', async () => {
    const d = deps(() => Promise.resolve(new Response('{"error":"not_found"}', { status: 404 })));
    await expect(loadImageById('missing', undefined, d)).resolves.toBe('');
    expect(d.log).toHaveBeenCalledWith('Failed to load image', expect.any(Error));
  });

  it('yields an empty string after the download itself fails 5 times', async () => {
    const fetch = vi.fn<FetchLike>((input) =>
      input.startsWith('/api/image')
        ? Promise.resolve(new Response(JSON.stringify({ url: '/files/x.png' }), { status: 200 }))
        : Promise.reject(new TypeError('offline')),
    );
    const d = deps(fetch);
    await expect(loadImageById('x', undefined, d)).resolves.toBe('');
    expect(fetch).toHaveBeenCalledTimes(6);
    const last = d.log.mock.calls.at(-1)!;
    expect(last[0]).toBe('Failed to load image');
    expect((last[1] as Error).message).toBe('Failed to download image after 5 attempts');
  });

  it('loads the fixed sample id from the demo folder without calling the API', async () => {
    const fetch = vi.fn<FetchLike>(() => Promise.resolve(bytesResponse(PNG_BYTES, 10, 'image/svg+xml')));
    const result = await loadImageById(SAMPLE_IMAGE_ID, undefined, deps(fetch));
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(['/demo/sample-wave.svg']);
    expect(result.startsWith('data:image/svg+xml;base64,')).toBe(true);
  });

  it('maps demo ids into the demo folder and refuses paths that leave it', () => {
    expect(localImageUrl('demo:panel-cat.svg')).toBe('/demo/panel-cat.svg');
    expect(localImageUrl('demo:../secret')).toBeNull();
    expect(localImageUrl('demo:.hidden')).toBeNull();
    expect(localImageUrl('0f1e2d')).toBeNull();
  });
});
