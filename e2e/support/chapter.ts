// A generated chapter for the chapter-memory spec and `npm run bench:chapter`: pages of 1024² images laid out in a
// grid, uploaded through the API of a running server. Images are made with sharp once and kept under the system's
// temporary folder, so re-runs only upload.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { APIRequestContext } from 'playwright-core';
import {
  COMIC_PAGE_HEIGHT,
  COMIC_PAGE_WIDTH,
  createComicPage,
  createGroupLayer,
  createImageLayer,
  createWorkspaceData,
  encodeWorkspaceData,
} from '@koma/domain';

export const CHAPTER_IMAGE_SIDE = 1024;
/** Bumped when the generated pictures change, so a stale cache is not reused. */
const CACHE_VERSION = 'v1';

export interface ChapterOptions {
  pages: number;
  imagesPerPage: number;
}

/** Where generated images are kept between runs. */
export function chapterCacheDir(): string {
  return path.join(tmpdir(), 'koma-chapter-images', CACHE_VERSION);
}

/**
 * The n-th picture: a two-colour gradient with shapes and a faint grain, as JPEG (about the weight and decode cost
 * of a generated illustration, far lighter to upload than noise-filled PNGs).
 */
async function picture(n: number): Promise<Buffer> {
  const file = path.join(chapterCacheDir(), `${n}.jpg`);
  if (existsSync(file)) return readFileSync(file);
  const side = CHAPTER_IMAGE_SIDE;
  const hue = (n * 47) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},70%,70%)"/><stop offset="1" stop-color="hsl(${(hue + 140) % 360},60%,30%)"/>
    </linearGradient></defs>
    <rect width="${side}" height="${side}" fill="url(#g)"/>
    ${Array.from({ length: 12 }, (_, k) => {
      const x = (n * 131 + k * 197) % side;
      const y = (n * 71 + k * 311) % side;
      return `<circle cx="${x}" cy="${y}" r="${40 + ((n + k * 13) % 120)}" fill="hsl(${(hue + k * 30) % 360},80%,55%)" opacity="0.6"/>`;
    }).join('')}
    <text x="60" y="180" font-size="140" font-family="sans-serif" fill="#fff">#${n}</text>
  </svg>`;
  const grain = await sharp({
    create: {
      width: side,
      height: side,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 18 },
    },
  })
    .png()
    .toBuffer();
  const bytes = await sharp(Buffer.from(svg))
    .composite([{ input: grain, blend: 'overlay' }])
    .jpeg({ quality: 85 })
    .toBuffer();
  mkdirSync(chapterCacheDir(), { recursive: true });
  // Written whole then renamed: an interrupted run never leaves a truncated picture in the cache.
  writeFileSync(`${file}.part`, bytes);
  renameSync(`${file}.part`, file);
  return bytes;
}

/** Makes (or reads from the cache) `count` pictures, two at a time. */
export async function chapterPictures(count: number): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (let i = 0; i < count; i += 2) {
    out.push(...(await Promise.all([i, i + 1].filter((n) => n < count).map((n) => picture(n)))));
  }
  return out;
}

/** Uploads pictures through POST /api/image (a signed-in request context), six at a time; returns their ids. */
export async function uploadPictures(request: APIRequestContext, baseUrl: string, pictures: Buffer[]) {
  const ids: string[] = new Array<string>(pictures.length);
  for (let i = 0; i < pictures.length; i += 6) {
    await Promise.all(
      pictures.slice(i, i + 6).map(async (bytes, k) => {
        const response = await request.post(`${baseUrl}/api/image`, {
          data: { encoded: bytes.toString('base64'), fileType: 'jpeg' },
        });
        if (!response.ok()) throw new Error(`Upload failed: ${response.status()} ${await response.text()}`);
        ids[i + k] = ((await response.json()) as { id: string }).id;
      }),
    );
  }
  return ids;
}

/**
 * Creates a comic of `pages` pages with `imagesPerPage` of the uploaded images each, in a grid of two columns;
 * returns the workspace id.
 */
export async function createChapter(
  request: APIRequestContext,
  baseUrl: string,
  imageIds: readonly string[],
  options: ChapterOptions,
): Promise<string> {
  let n = 0;
  const ids = () => `c${n++}`;
  const data = createWorkspaceData('COMIC', ids);
  const rows = Math.ceil(options.imagesPerPage / 2);
  const cell = { width: COMIC_PAGE_WIDTH / 2, height: COMIC_PAGE_HEIGHT / rows };
  data.pages = Array.from({ length: options.pages }, (_, p) => {
    const images = Array.from({ length: options.imagesPerPage }, (_, i) =>
      createImageLayer(
        ids(),
        {
          x: (i % 2) * cell.width + 10,
          y: Math.floor(i / 2) * cell.height + 10,
          size: { width: cell.width - 20, height: cell.height - 20 },
        },
        { variations: [{ id: imageIds[(p * options.imagesPerPage + i) % imageIds.length]! }] },
      ),
    );
    return { ...createComicPage(ids), rootLayer: createGroupLayer(ids(), images) };
  });
  const created = await request.post(`${baseUrl}/api/workspace`, {
    data: { name: 'chapter', data: encodeWorkspaceData(data), type: 'COMIC' },
  });
  if (!created.ok()) throw new Error(`Creating the chapter failed: ${created.status()} ${await created.text()}`);
  return ((await created.json()) as { id: string }).id;
}
