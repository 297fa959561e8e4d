// Every bubble style with a tail at three aspects, painted by the editor's own painter on a Node canvas:
// `npx tsx packages/editor/scripts/bubble-montage.ts [out.png]` (default e2e/artifacts/bubbles-montage.png).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { SPEECH_BUBBLES, SPEECH_BUBBLE_NAMES } from '@koma/domain';
import { bubbleShape, newBubbleData, paintBubble } from '../src/index.ts';

const out = process.argv[2] ?? path.resolve(import.meta.dirname, '../../../e2e/artifacts/bubbles-montage.png');
const ASPECTS = [
  { w: 240, h: 120 },
  { w: 170, h: 170 },
  { w: 120, h: 240 },
];
const CELL = { w: 290, h: 340 };
const PER_ROW = 3;
const styles = SPEECH_BUBBLES.map((b) => b.id);
const cellsPerStyle = ASPECTS.length;
const columns = PER_ROW * cellsPerStyle;
const rows = Math.ceil(styles.length / PER_ROW);
const scale = 1;
const canvas = createCanvas(columns * CELL.w * scale, rows * CELL.h * scale);
const ctx = canvas.getContext('2d');
ctx.fillStyle = '#e8eef4';
ctx.fillRect(0, 0, canvas.width, canvas.height);
ctx.scale(scale, scale);

styles.forEach((style, i) => {
  const col = (i % PER_ROW) * cellsPerStyle;
  const row = Math.floor(i / PER_ROW);
  ASPECTS.forEach((a, k) => {
    const cx = (col + k) * CELL.w + CELL.w / 2 - 20;
    const cy = row * CELL.h + CELL.h / 2 - 30;
    const box = { x: cx - a.w / 2, y: cy - a.h / 2, width: a.w, height: a.h };
    const data = newBubbleData({ bubbleStyle: style, hasTail: true, tailAngle: 115 + k * 20, tailLength: 70 });
    paintBubble(ctx, data, bubbleShape(data, box));
  });
  ctx.fillStyle = '#111';
  ctx.font = '16px sans-serif';
  ctx.fillText(`${style} ${SPEECH_BUBBLE_NAMES[style] ?? ''}`, col * CELL.w + 8, row * CELL.h + 20);
});

mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, canvas.toBuffer('image/png'));
console.log(out);
