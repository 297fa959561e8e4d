import { describe, expect, it } from 'vitest';
import { layoutText, newBubbleData, parseRuby } from '../../src/text/index.ts';
import { fakeMeasure } from './fake-measure.ts';

describe('parseRuby', () => {
  it('reads ｜漢字《かんじ》 with the bar, full-width or ASCII', () => {
    expect(parseRuby('これは｜漢字《かんじ》です')).toEqual({
      ok: true,
      text: 'これは漢字です',
      spans: [{ start: 3, end: 5, ruby: 'かんじ' }],
    });
    expect(parseRuby('|東京《とうきょう》へ')).toEqual({
      ok: true,
      text: '東京へ',
      spans: [{ start: 0, end: 2, ruby: 'とうきょう' }],
    });
  });

  it('takes the run of kanji before 《 as the base when there is no bar', () => {
    expect(parseRuby('これは漢字《かんじ》です')).toEqual({
      ok: true,
      text: 'これは漢字です',
      spans: [{ start: 3, end: 5, ruby: 'かんじ' }],
    });
    // The bar sets a base that is not kanji (or only part of a kanji run).
    expect(parseRuby('｜ＫＯＭＡ《こま》')).toMatchObject({ text: 'ＫＯＭＡ', spans: [{ start: 0, end: 4 }] });
    expect(parseRuby('日本｜語《ご》')).toMatchObject({ text: '日本語', spans: [{ start: 2, end: 3 }] });
  });

  it('leaves text without notation alone, and a bar with no reading after it as a character', () => {
    expect(parseRuby('Hey! 2024')).toEqual({ ok: true, text: 'Hey! 2024', spans: [] });
    expect(parseRuby('a｜b\n漢《かん》')).toMatchObject({ ok: true, text: 'a｜b\n漢', spans: [{ start: 4, end: 5 }] });
  });

  it('refuses nested brackets, unclosed ones and readings without a base, with a message naming the field', () => {
    const nested = parseRuby('｜漢字《かん《じ》》');
    expect(nested.ok).toBe(false);
    expect(!nested.ok && nested.message).toMatch(/^text: ruby brackets cannot be nested/);
    expect(parseRuby('漢字《かんじ')).toMatchObject({ ok: false, message: expect.stringMatching(/not closed/) });
    expect(parseRuby('ひらがな《よみ》')).toMatchObject({ ok: false, message: expect.stringMatching(/no base text/) });
    expect(parseRuby('閉じ》')).toMatchObject({ ok: false, message: expect.stringMatching(/closes no 《/) });
  });
});

describe('ruby in the layout', () => {
  it('prints the base text and sets the reading at half size above it (horizontal)', () => {
    const layout = layoutText(newBubbleData({ text: '｜漢字《かんじ》', fontSize: 30 }), fakeMeasure);
    expect(layout.kind === 'horizontal' && layout.lines.map((l) => l.text)).toEqual(['漢字']);
    expect(layout.ruby.map((m) => m.text).join('')).toBe('かんじ');
    const line = layout.kind === 'horizontal' ? layout.lines[0]! : null;
    for (const mark of layout.ruby) {
      expect(mark.size).toBe(15);
      expect(mark.y).toBeLessThan(line!.y); // above the line's top
      expect(mark.y).toBeGreaterThanOrEqual(0); // inside the laid-out block
    }
    // Centred over the base.
    const xs = layout.ruby.map((m) => m.x);
    expect((Math.min(...xs) + Math.max(...xs)) / 2).toBeCloseTo(line!.x + line!.width / 2, 0);
  });

  it('sets the reading down the right side of its base (vertical)', () => {
    const layout = layoutText(newBubbleData({ vertical: true, text: 'これは漢字《かんじ》です' }), fakeMeasure);
    if (layout.kind !== 'vertical') throw new Error('vertical expected');
    const column = layout.columns[0]!;
    expect(column.text).toBe('これは漢字です');
    const kanji = column.glyphs.filter((g) => g.text === '漢' || g.text === '字');
    const top = Math.min(...kanji.map((g) => g.y - g.advance / 2));
    const bottom = Math.max(...kanji.map((g) => g.y + g.advance / 2));
    expect(layout.ruby).toHaveLength(3);
    for (const mark of layout.ruby) {
      expect(mark.x).toBeGreaterThan(column.x + layout.font.size / 2 - 1e-9);
      expect(mark.x).toBeLessThanOrEqual(layout.width);
    }
    const ys = layout.ruby.map((m) => m.y);
    expect((Math.min(...ys) + Math.max(...ys)) / 2).toBeCloseTo((top + bottom) / 2, 6);
  });

  it('has no readings and the usual spacing without notation', () => {
    const plain = layoutText(newBubbleData({ text: '漢字' }), fakeMeasure);
    expect(plain.ruby).toEqual([]);
  });
});
