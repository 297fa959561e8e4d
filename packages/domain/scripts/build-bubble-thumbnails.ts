/**
 * Writes apps/web/public/speech_bubbles/<id>.svg for every catalogue entry: drawn styles paint their paths
 * (FILL_FG black, FILL_BG white, FILL_UNKNOWN grey), procedural ones are rendered through the editor's outline
 * generator as a white shape with a black border. Run: npx tsx packages/domain/scripts/build-bubble-thumbnails.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// A build-time tool, not domain code: it renders the procedural styles with the editor's generator so the
// thumbnails show exactly what the canvas draws. Nothing in src/ imports the editor.
// eslint-disable-next-line no-restricted-imports
import { bubbleOutline, tailOnOutline } from '@koma/editor';
import { SPEECH_BUBBLES, SPEECH_BUBBLE_NAMES, polygonsToPathData, type SpeechBubble } from '../src/index.ts';

const COLORS = { FILL_FG: '#000', FILL_BG: '#fff', FILL_UNKNOWN: '#808080' } as const;
const BORDER = 10;
const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, '../../../apps/web/public/speech_bubbles');

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function drawnBody(bubble: SpeechBubble): string {
  return bubble.paths.map((p) => `<path d="${p.path}" fill="${COLORS[p.fill]}"/>`).join('');
}

function proceduralBody(bubble: SpeechBubble): string {
  const thought = bubble.id === 'b35';
  // A thought bubble keeps the lower fifth of its box for its trail of circles.
  const bodyHeight = thought ? bubble.height * 0.8 : bubble.height;
  const outline = bubbleOutline(bubble.id, bubble.width, bodyHeight);
  const stroke = `fill="#fff" stroke="#000" stroke-width="${BORDER}" stroke-linejoin="round"`;
  let svg = `<path d="${polygonsToPathData([outline.points])}" ${stroke}/>`;
  if (thought) {
    const tail = tailOnOutline(
      { bubbleStyle: bubble.id, tailAngle: 115, tailLength: bubble.height * 0.3, tailWidth: 18, tailGap: 0 },
      outline.points,
      { x: 0, y: 0, width: bubble.width, height: bodyHeight },
    );
    for (const c of tail?.circles ?? []) {
      svg += `<circle cx="${c.x.toFixed(1)}" cy="${c.y.toFixed(1)}" r="${c.r.toFixed(1)}" ${stroke}/>`;
    }
  }
  return svg;
}

function thumbnail(bubble: SpeechBubble): string {
  const pad = BORDER;
  const viewBox = `${-pad} ${-pad} ${bubble.width + pad * 2} ${bubble.height + pad * 2}`;
  const body = bubble.paths.length > 0 ? drawnBody(bubble) : proceduralBody(bubble);
  const title = escape(`${bubble.id}: ${SPEECH_BUBBLE_NAMES[bubble.id] ?? ''}`);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${viewBox}" width="${bubble.width}" height="${bubble.height}"><title>${title}</title>${body}</svg>\n`;
}

mkdirSync(outDir, { recursive: true });
for (const bubble of SPEECH_BUBBLES) writeFileSync(join(outDir, `${bubble.id}.svg`), thumbnail(bubble));
console.log(`wrote ${SPEECH_BUBBLES.length} thumbnails to ${outDir}`);
