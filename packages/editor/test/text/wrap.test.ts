import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_LINE_END, NO_LINE_START, wrapDialogue } from '../../src/text/index.ts';

const first = (s: string) => Array.from(s)[0] ?? '';
const last = (s: string) => Array.from(s).at(-1) ?? '';
const len = (s: string) => Array.from(s).length;

describe('wrapDialogue', () => {
  it('wraps Latin text at spaces into lines of at most 15 characters', () => {
    expect(wrapDialogue('The quick brown fox jumps over the lazy dog')).toEqual([
      'The quick brown',
      'fox jumps over',
      'the lazy dog',
    ]);
  });

  it('cuts a word longer than a line and keeps explicit newlines', () => {
    expect(wrapDialogue('Supercalifragilisticexpialidocious')).toEqual(['Supercalifragil', 'isticexpialidoc', 'ious']);
    expect(wrapDialogue('Hi!\n\nWho  are you?')).toEqual(['Hi!', '', 'Who are you?']);
  });

  it('breaks Japanese anywhere at 15 characters', () => {
    expect(wrapDialogue('「こんにちは、世界！」ちょっと待って。')).toEqual([
      '「こんにちは、世界！」ちょっと',
      '待って。',
    ]);
  });

  it('pushes closing marks and small kana down with the character before them', () => {
    // At 5 a line would start with 」, then ょ… then っ: each time the previous character moves down too.
    expect(wrapDialogue('「こんにちは、世界！」ちょっと待って。', 5)).toEqual([
      '「こんにち',
      'は、世',
      '界！」',
      'ちょっと',
      '待って。',
    ]);
    expect(wrapDialogue('ラーメンが好きだよ。', 3)).toEqual(['ラーメ', 'ンが好', 'きだ', 'よ。']);
    expect(wrapDialogue('スーパー', 3)).toEqual(['スー', 'パー']);
  });

  it('moves an opening bracket down to the line it opens', () => {
    expect(wrapDialogue('あいう「えお」', 4)).toEqual(['あいう', '「えお」']);
    expect(wrapDialogue('ねえ（笑）', 3)).toEqual(['ねえ', '（笑）']);
  });

  it('lets closing marks hang past the limit only when nothing can be pushed down', () => {
    expect(wrapDialogue('！！！！', 2)).toEqual(['！！！！']);
  });

  const cjk = fc.constantFrom(...'あいうえおかきくけこ世界待日本語漢字カタナ');
  const marks = fc.constantFrom(...'。、」』）！？ーっゃゅょァィゥェォッャュョ「『（');
  const word = fc.string({ unit: fc.constantFrom(...'abcdefghij'), minLength: 1, maxLength: 20 });
  const piece = fc.oneof(
    cjk,
    cjk,
    marks,
    word.map((w) => ` ${w} `),
  );
  const text = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));

  it('keeps every character, in order, whatever the text (property)', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 20 }), (t, max) => {
        const strip = (s: string) => s.replace(/\s+/g, '');
        expect(strip(wrapDialogue(t, max).join(''))).toBe(strip(t));
      }),
    );
  });

  it('never starts a later line with a closing mark nor ends a multi-unit line with an opening one (property)', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 2, max: 20 }), (t, max) => {
        const lines = wrapDialogue(t, max);
        lines.slice(1).forEach((line) => expect(NO_LINE_START.has(first(line)), line).toBe(false));
        lines.slice(0, -1).forEach((line) => {
          if (len(line) > 1) expect(NO_LINE_END.has(last(line)), line).toBe(false);
        });
      }),
    );
  });

  it('never exceeds the limit when no closing mark forces a hang (property)', () => {
    const plain = fc
      .array(
        fc.oneof(
          cjk,
          word.map((w) => ` ${w} `),
        ),
        { maxLength: 40 },
      )
      .map((p) => p.join(''));
    fc.assert(
      fc.property(plain, fc.integer({ min: 1, max: 20 }), (t, max) => {
        for (const line of wrapDialogue(t, max)) expect(len(line)).toBeLessThanOrEqual(max);
      }),
    );
  });
});
