import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SPEECH_BUBBLES } from '../../src/bubbles/index.ts';

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '../../../../apps/web/public');
const COLORS = { FILL_FG: '#000', FILL_BG: '#fff', FILL_UNKNOWN: '#808080' } as const;

// The thumbnails are generated (scripts/build-bubble-thumbnails.ts) and committed; these checks catch a stale set.
describe('speech-bubble thumbnails', () => {
  it('exist for every entry at the path the catalogue names', () => {
    for (const bubble of SPEECH_BUBBLES) expect(existsSync(join(publicDir, bubble.thumbnail)), bubble.id).toBe(true);
  });

  it('paint exactly the catalogue paths of drawn styles, in order, with black, white and grey', () => {
    for (const bubble of SPEECH_BUBBLES.filter((b) => b.paths.length > 0)) {
      const svg = readFileSync(join(publicDir, bubble.thumbnail), 'utf8');
      const painted = [...svg.matchAll(/<path d="([^"]+)" fill="([^"]+)"\/>/g)].map((m) => [m[1], m[2]]);
      expect(painted, bubble.id).toEqual(bubble.paths.map((p) => [p.path, COLORS[p.fill]]));
      expect(svg).toContain(`width="${bubble.width}" height="${bubble.height}"`);
    }
  });

  it('draw the procedural styles as a white shape with a black border', () => {
    for (const bubble of SPEECH_BUBBLES.filter((b) => b.paths.length === 0)) {
      const svg = readFileSync(join(publicDir, bubble.thumbnail), 'utf8');
      expect(svg, bubble.id).toMatch(/<path d="M[^"]+Z" fill="#fff" stroke="#000"/);
    }
  });
});
