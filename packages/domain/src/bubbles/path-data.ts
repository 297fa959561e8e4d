import type { Point } from '../document/geometry.ts';

/** One absolute drawing command of an SVG path, after parsing (H/V become L, relative becomes absolute). */
export type PathCommand =
  | { type: 'M'; to: Point }
  | { type: 'L'; to: Point }
  | { type: 'Q'; c: Point; to: Point }
  | { type: 'C'; c1: Point; c2: Point; to: Point }
  | { type: 'Z' };

const ARG_COUNTS: Record<string, number> = { M: 2, L: 2, H: 1, V: 1, Q: 4, C: 6, Z: 0 };
const TOKEN = /([MLHVQCZmlhvqcz])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)/g;

/** Parses the subset of SVG path data the catalogue uses (M L H V Q C Z, absolute or relative); throws on anything else. */
export function parsePathData(d: string): PathCommand[] {
  const tokens: (string | number)[] = [];
  let consumed = 0;
  for (const match of d.matchAll(TOKEN)) {
    const gap = d.slice(consumed, match.index);
    if (!/^[\s,]*$/.test(gap)) throw new Error(`unexpected path data "${gap.trim()}"`);
    tokens.push(match[1] ?? Number(match[2]));
    consumed = match.index + match[0].length;
  }
  if (!/^[\s,]*$/.test(d.slice(consumed))) throw new Error('unexpected trailing path data');

  const out: PathCommand[] = [];
  let cursor: Point = { x: 0, y: 0 };
  let start: Point = { x: 0, y: 0 };
  let i = 0;
  let command = '';
  while (i < tokens.length) {
    const token = tokens[i];
    if (typeof token === 'string') {
      command = token;
      i++;
    } else if (command === '' || command.toUpperCase() === 'Z') {
      throw new Error('a number without a command');
    }
    const upper = command.toUpperCase();
    const relative = command !== upper;
    const count = ARG_COUNTS[upper] ?? 0;
    const args: number[] = [];
    for (let k = 0; k < count; k++) {
      const value = tokens[i + k];
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`command ${command} lacks arguments`);
      args.push(value);
    }
    i += count;
    const at = (k: number): Point => ({
      x: (args[k] ?? 0) + (relative ? cursor.x : 0),
      y: (args[k + 1] ?? 0) + (relative ? cursor.y : 0),
    });
    switch (upper) {
      case 'M':
        cursor = start = at(0);
        out.push({ type: 'M', to: cursor });
        // Further coordinate pairs after a moveto are implicit linetos.
        command = relative ? 'l' : 'L';
        break;
      case 'L':
        cursor = at(0);
        out.push({ type: 'L', to: cursor });
        break;
      case 'H':
        cursor = { x: (args[0] ?? 0) + (relative ? cursor.x : 0), y: cursor.y };
        out.push({ type: 'L', to: cursor });
        break;
      case 'V':
        cursor = { x: cursor.x, y: (args[0] ?? 0) + (relative ? cursor.y : 0) };
        out.push({ type: 'L', to: cursor });
        break;
      case 'Q': {
        const c = at(0);
        cursor = at(2);
        out.push({ type: 'Q', c, to: cursor });
        break;
      }
      case 'C': {
        const c1 = at(0);
        const c2 = at(2);
        cursor = at(4);
        out.push({ type: 'C', c1, c2, to: cursor });
        break;
      }
      case 'Z':
        cursor = start;
        out.push({ type: 'Z' });
        break;
      default:
        throw new Error(`unsupported path command ${command}`);
    }
  }
  if (out.length > 0 && out[0]?.type !== 'M') throw new Error('path data must start with a moveto');
  return out;
}

/** Flattens path data into closed polygons, one per subpath; curves become `steps` straight pieces. */
export function flattenPathData(d: string, steps = 12): Point[][] {
  const polygons: Point[][] = [];
  let current: Point[] = [];
  let cursor: Point = { x: 0, y: 0 };
  const flush = () => {
    if (current.length > 1) polygons.push(current);
    current = [];
  };
  for (const cmd of parsePathData(d)) {
    if (cmd.type === 'M') {
      flush();
      cursor = cmd.to;
      current.push(cursor);
    } else if (cmd.type === 'L') {
      cursor = cmd.to;
      current.push(cursor);
    } else if (cmd.type === 'Q') {
      const p0 = cursor;
      for (let s = 1; s <= steps; s++) {
        const t = s / steps;
        const u = 1 - t;
        current.push({
          x: u * u * p0.x + 2 * u * t * cmd.c.x + t * t * cmd.to.x,
          y: u * u * p0.y + 2 * u * t * cmd.c.y + t * t * cmd.to.y,
        });
      }
      cursor = cmd.to;
    } else if (cmd.type === 'C') {
      const p0 = cursor;
      for (let s = 1; s <= steps; s++) {
        const t = s / steps;
        const u = 1 - t;
        current.push({
          x: u * u * u * p0.x + 3 * u * u * t * cmd.c1.x + 3 * u * t * t * cmd.c2.x + t * t * t * cmd.to.x,
          y: u * u * u * p0.y + 3 * u * u * t * cmd.c1.y + 3 * u * t * t * cmd.c2.y + t * t * t * cmd.to.y,
        });
      }
      cursor = cmd.to;
    } else {
      flush();
    }
  }
  flush();
  return polygons;
}

const fmt = (n: number, decimals: number): string => {
  const s = n.toFixed(decimals);
  // Trim "12.0" to "12" and "-0" to "0" so the data stays compact and stable.
  const trimmed = s.includes('.') ? s.replace(/\.?0+$/, '') : s;
  return trimmed === '-0' ? '0' : trimmed;
};

/** Writes closed polygons as compact absolute path data ("M x y L … Z" per polygon). */
export function polygonsToPathData(polygons: readonly (readonly Point[])[], decimals = 1): string {
  return polygons
    .filter((poly) => poly.length > 1)
    .map(
      (poly) => poly.map((p, i) => `${i === 0 ? 'M' : 'L'}${fmt(p.x, decimals)} ${fmt(p.y, decimals)}`).join('') + 'Z',
    )
    .join('');
}

/** Maps every coordinate of path data through `f` (used to scale a catalogue shape to a bubble's box). */
export function transformPathData(d: string, f: (p: Point) => Point, decimals = 2): string {
  const parts: string[] = [];
  const pt = (p: Point) => {
    const q = f(p);
    return `${fmt(q.x, decimals)} ${fmt(q.y, decimals)}`;
  };
  for (const cmd of parsePathData(d)) {
    if (cmd.type === 'M' || cmd.type === 'L') parts.push(`${cmd.type}${pt(cmd.to)}`);
    else if (cmd.type === 'Q') parts.push(`Q${pt(cmd.c)} ${pt(cmd.to)}`);
    else if (cmd.type === 'C') parts.push(`C${pt(cmd.c1)} ${pt(cmd.c2)} ${pt(cmd.to)}`);
    else parts.push('Z');
  }
  return parts.join('');
}
