import { describe, expect, it } from 'vitest';
import { TermMatcher, tokenize } from '../../src/generation/index.ts';

describe('tokenize', () => {
  it('keeps original positions and folds look-alikes only in the canonical spelling', () => {
    const p = 'Cute L0li3, (13yo)';
    const t = tokenize(p);
    expect(t.raw).toEqual(['cute', 'l0li3', '13yo']);
    expect(t.canon).toEqual(['cute', 'ioiie', 'ieyo']);
    expect(t.raw.map((_, i) => p.slice(t.start[i], t.end[i]))).toEqual(['Cute', 'L0li3', '13yo']);
    expect(t.breakBefore).toEqual([false, false, true]);
  });

  it('keeps positions for non-ASCII text', () => {
    const p = 'ｎｕｄｅ, café — 幼女';
    const t = tokenize(p);
    expect(t.raw).toEqual(['nude', 'cafe']);
    expect(p.slice(t.start[1], t.end[1])).toBe('café');
  });
});

describe('TermMatcher', () => {
  const m = new TermMatcher({ a: ['sex', 'sex toy', 'spread legs'], b: ['kid'] }, new Set<'a' | 'b'>(['b']));
  const find = (p: string) => m.find(tokenize(p)).map((x) => [p.slice(x.start, x.end), x.labels.join('+')]);

  it('takes the longest match at each position and does not overlap', () => {
    expect(find('a sex toy and sex')).toEqual([
      ['sex toy', 'a'],
      ['sex', 'a'],
    ]);
  });

  it('matches a multi-word term across any run of separators, and plurals only where asked', () => {
    expect(find('spread...legs; spread_-_legs')).toEqual([
      ['spread...legs', 'a'],
      ['spread_-_legs', 'a'],
    ]);
    expect(find('kids kidz sexes')).toEqual([
      ['kids', 'b'],
      ['kidz', 'b'],
    ]);
  });

  it('reads letter-spaced words as one word', () => {
    expect(find('a k i d here')).toEqual([['k i d', 'b']]);
  });

  it('refuses a term without letters', () => {
    expect(() => new TermMatcher({ a: ['--'] })).toThrow(/no letters/);
  });
});
