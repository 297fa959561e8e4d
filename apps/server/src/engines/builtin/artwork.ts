import sharp from 'sharp';
import type { Palette } from './palette.ts';
import { between, createRng, pick } from './prng.ts';
import type { Rng } from './prng.ts';

/** A procedural picture as SVG layers, drawn back to front; previews draw only the first layers. */
export interface Artwork {
  width: number;
  height: number;
  defs: string;
  layers: string[];
}

const f = (n: number): string => n.toFixed(1);

// Pattern tiles are whole pixels and never transformed: librsvg then paints a cached tile (~40 ms for a
// 1024 px fill) instead of drawing every tile again (~700 ms). Diagonal looks come from the tile contents.
function halftoneDefs(rng: Rng, palette: Palette, id: string): string {
  const cell = 6 + Math.floor(rng() * 9);
  const r = f(cell * between(rng, 0.18, 0.34));
  const dot = (x: number, y: number): string => `<circle cx="${x}" cy="${y}" r="${r}" fill="${palette.ink}"/>`;
  const dots =
    rng() < 0.5
      ? dot(cell / 2, cell / 2)
      : dot(cell / 2, cell / 2) + dot(0, 0) + dot(cell, 0) + dot(0, cell) + dot(cell, cell); // 45° grid
  return `<pattern id="${id}" width="${cell}" height="${cell}" patternUnits="userSpaceOnUse">${dots}</pattern>`;
}

function hatchDefs(rng: Rng, palette: Palette, id: string): string {
  const g = 4 + Math.floor(rng() * 7);
  const w = f(g * between(rng, 0.25, 0.45));
  const lines = {
    vertical: `M${g / 2},0V${g}`,
    horizontal: `M0,${g / 2}H${g}`,
    diagonal: `M0,${g}L${g},0M${-g / 2},${g / 2}L${g / 2},${-g / 2}M${g / 2},${g * 1.5}L${g * 1.5},${g / 2}`,
    antidiagonal: `M0,0L${g},${g}M${-g / 2},${g / 2}L${g / 2},${g * 1.5}M${g / 2},${-g / 2}L${g * 1.5},${g / 2}`,
  };
  const d = lines[pick(rng, ['vertical', 'horizontal', 'diagonal', 'antidiagonal'] as const)];
  return `<pattern id="${id}" width="${g}" height="${g}" patternUnits="userSpaceOnUse"><path d="${d}" stroke="${palette.ink}" stroke-width="${w}"/></pattern>`;
}

function polygon(rng: Rng, cx: number, cy: number, r: number, points: number, spiky: boolean): string {
  const out: string[] = [];
  const turn = between(rng, 0, Math.PI * 2);
  const n = spiky ? points * 2 : points;
  for (let i = 0; i < n; i++) {
    const rr = spiky && i % 2 === 1 ? r * between(rng, 0.35, 0.6) : r * between(rng, 0.85, 1.1);
    const a = turn + (i / n) * Math.PI * 2;
    out.push(`${f(cx + rr * Math.cos(a))},${f(cy + rr * Math.sin(a))}`);
  }
  return out.join(' ');
}

function shapeLayer(rng: Rng, palette: Palette, w: number, h: number, fills: string[]): string {
  const cx = between(rng, 0, w);
  const cy = between(rng, 0, h);
  const r = between(rng, 0.05, 0.28) * Math.min(w, h);
  const fill = pick(rng, fills);
  const stroke = rng() < 0.6 ? ` stroke="${palette.ink}" stroke-width="${f(between(rng, 1.5, 5))}"` : '';
  const opacity = f(between(rng, 0.55, 1));
  switch (pick(rng, ['circle', 'rect', 'poly', 'burst'] as const)) {
    case 'circle':
      return `<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(r)}" fill="${fill}" fill-opacity="${opacity}"${stroke}/>`;
    case 'rect':
      return (
        `<rect x="${f(cx - r)}" y="${f(cy - r * 0.7)}" width="${f(r * 2)}" height="${f(r * 1.4)}" rx="${f(r * 0.15)}" ` +
        `transform="rotate(${f(between(rng, -30, 30))} ${f(cx)} ${f(cy)})" fill="${fill}" fill-opacity="${opacity}"${stroke}/>`
      );
    case 'poly':
      return `<polygon points="${polygon(rng, cx, cy, r, 3 + Math.floor(rng() * 4), false)}" fill="${fill}" fill-opacity="${opacity}"${stroke}/>`;
    case 'burst':
      return `<polygon points="${polygon(rng, cx, cy, r, 7 + Math.floor(rng() * 8), true)}" fill="${fill}" fill-opacity="${opacity}"${stroke}/>`;
  }
}

function speedLines(rng: Rng, palette: Palette, w: number, h: number): string {
  const cx = between(rng, 0.3, 0.7) * w;
  const cy = between(rng, 0.3, 0.7) * h;
  const reach = Math.hypot(w, h);
  const inner = between(rng, 0.15, 0.3) * Math.min(w, h);
  const count = 40 + Math.floor(rng() * 60);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const a = between(rng, 0, Math.PI * 2);
    const start = inner * between(rng, 0.8, 1.6);
    lines.push(
      `M${f(cx + start * Math.cos(a))},${f(cy + start * Math.sin(a))}L${f(cx + reach * Math.cos(a))},${f(cy + reach * Math.sin(a))}`,
    );
  }
  return `<path d="${lines.join('')}" stroke="${palette.ink}" stroke-opacity="${f(between(rng, 0.25, 0.6))}" stroke-width="${f(between(rng, 0.8, 2.2))}" fill="none"/>`;
}

/** Composes a deterministic picture: gradient paper, screentone areas, shapes with ink outlines, speed lines. */
export function composeArtwork(seed: number, palette: Palette, width: number, height: number): Artwork {
  const rng = createRng(seed);
  const angle = between(rng, 0, 360);
  const paperA = pick(rng, palette.paper);
  const paperB = pick(rng, palette.paper.length > 1 ? palette.paper : [...palette.paper, palette.colours[0] ?? '#fff']);
  const defs =
    `<linearGradient id="bg" gradientTransform="rotate(${f(angle)} 0.5 0.5)"><stop offset="0" stop-color="${paperA}"/><stop offset="1" stop-color="${paperB}"/></linearGradient>` +
    halftoneDefs(rng, palette, 'tone') +
    hatchDefs(rng, palette, 'hatch');
  const layers: string[] = [`<rect width="${width}" height="${height}" fill="url(#bg)"/>`];
  const toneR = between(rng, 0.25, 0.6) * Math.max(width, height);
  layers.push(
    `<circle cx="${f(between(rng, 0, width))}" cy="${f(between(rng, 0, height))}" r="${f(toneR)}" fill="url(#tone)" fill-opacity="${f(between(rng, 0.2, 0.5))}"/>`,
  );
  const shapeCount = 6 + Math.floor(rng() * 10);
  for (let i = 0; i < shapeCount; i++) {
    layers.push(shapeLayer(rng, palette, width, height, [...palette.colours, 'url(#tone)', 'url(#hatch)']));
    if (i === Math.floor(shapeCount / 2) && rng() < 0.7) layers.push(speedLines(rng, palette, width, height));
  }
  layers.push(
    `<rect x="0" y="${f(height * between(rng, 0.7, 0.9))}" width="${width}" height="${height}" fill="url(#hatch)" fill-opacity="${f(between(rng, 0.1, 0.3))}"/>`,
  );
  return { width, height, defs, layers };
}

/** The SVG of the first `fraction` of the layers, rendered at `outWidth` x `outHeight` (smaller for previews). */
export function artworkSvg(art: Artwork, fraction: number, outWidth = art.width, outHeight = art.height): string {
  const count = Math.max(1, Math.ceil(art.layers.length * Math.min(1, Math.max(0, fraction))));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${outWidth}" height="${outHeight}" viewBox="0 0 ${art.width} ${art.height}" preserveAspectRatio="none">` +
    `<defs>${art.defs}</defs>${art.layers.slice(0, count).join('')}</svg>`
  );
}

export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
}

/** Rasterises to 3-channel raw pixels of exactly the requested size. */
export async function renderArtwork(art: Artwork, fraction = 1): Promise<RawImage> {
  const { data, info } = await sharp(Buffer.from(artworkSvg(art, fraction)))
    .resize(art.width, art.height, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** A small JPEG of the picture so far, for preview events. */
export async function renderPreview(art: Artwork, fraction: number, maxSide = 256): Promise<Buffer> {
  const scale = Math.min(1, maxSide / Math.max(art.width, art.height));
  const w = Math.max(1, Math.round(art.width * scale));
  const h = Math.max(1, Math.round(art.height * scale));
  return sharp(Buffer.from(artworkSvg(art, fraction, w, h)))
    .resize(w, h, { fit: 'fill' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 70 })
    .toBuffer();
}
