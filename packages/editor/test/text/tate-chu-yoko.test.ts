import { describe, expect, it } from 'vitest';
import { isTateChuYoko, layoutVertical, newBubbleData } from '../../src/text/index.ts';
import { fakeMeasure } from './fake-measure.ts';

const on2 = { tateChuYoko: true, tateChuYokoLength: 2 };
const on3 = { tateChuYoko: true, tateChuYokoLength: 3 };

describe('tate-chū-yoko run detection', () => {
  it('takes digits and !? runs of up to two characters', () => {
    for (const run of ['1', '12', '!?', '!!', '?!', '!', '?']) expect(isTateChuYoko(run, on2), run).toBe(true);
    for (const run of ['123', '2024', '!!!', '1!', 'A', 'A1', 'ab', '１２', '', '12 ']) {
      expect(isTateChuYoko(run, on2), run).toBe(false);
    }
  });

  it('takes three with the option, never four', () => {
    for (const run of ['100', '!!!', '!?!']) expect(isTateChuYoko(run, on3), run).toBe(true);
    for (const run of ['2024', '!!!!', '1a2']) expect(isTateChuYoko(run, on3), run).toBe(false);
  });

  it('takes nothing when the layer switches it off', () => {
    expect(isTateChuYoko('12', { tateChuYoko: false, tateChuYokoLength: 3 })).toBe(false);
  });

  it('follows the layer: off turns "!?" sideways, 3 sets "100" upright', () => {
    const glyph = (over: object, run: string) =>
      layoutVertical(newBubbleData({ vertical: true, text: `本当${run}`, ...over }), fakeMeasure)
        .columns.flatMap((c) => c.glyphs)
        .find((g) => g.text === run)!;
    expect(glyph({}, '!?').kind).toBe('tate-chu-yoko');
    expect(glyph({ tateChuYoko: false }, '!?')).toMatchObject({ kind: 'rotated', rotation: 90 });
    expect(glyph({}, '100').kind).toBe('rotated');
    expect(glyph({ tateChuYokoLength: 3 }, '100')).toMatchObject({ kind: 'tate-chu-yoko', rotation: 0, advance: 35 });
  });
});
