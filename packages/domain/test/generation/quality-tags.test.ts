import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MODEL_CATALOGUE,
  QUALITY_TAG_FAMILIES,
  applyNegativeQualityTags,
  applyQualityTags,
  findModelById,
  stripNegativeQualityTags,
  stripQualityTags,
} from '../../src/generation/index.ts';

describe('quality tags', () => {
  it('wraps prompts with the family prefix and suffix', () => {
    const pony = findModelById('ponydiffusionv6')!;
    expect(applyQualityTags('1girl, katana', pony)).toBe(
      'score_9, score_8_up, score_7_up, source_anime, 1girl, katana',
    );
    const a31 = findModelById('animaginexl3.1')!;
    expect(applyQualityTags('1girl', a31)).toBe('1girl, masterpiece, best quality, very aesthetic, absurdres');
    expect(applyQualityTags('', a31)).toBe('masterpiece, best quality, very aesthetic, absurdres');
    expect(applyNegativeQualityTags('extra arms', pony)).toBe(
      'score_6, score_5, score_4, nsfw, worst quality, low quality, extra arms',
    );
    const flux = findModelById('fluxdev')!;
    expect(applyQualityTags('a cat', flux)).toBe('a cat');
  });

  it('leaves text without the tags unchanged when stripping', () => {
    const pony = findModelById('ponydiffusionv6')!;
    expect(stripQualityTags('a cat on a roof', pony)).toBe('a cat on a roof');
    expect(stripQualityTags('score_9, a cat', pony)).toBe('score_9, a cat');
  });

  const both = {
    qualityTagsPrefix: 'pre, fix',
    qualityTagsSuffix: 'suf',
    negativeQualityTagsPrefix: '',
    negativeQualityTagsSuffix: 'neg',
  };
  const tagSets = [...MODEL_CATALOGUE, both];

  it('strip(apply(p)) === p for every model and any prompt (property)', () => {
    const prompt = fc.oneof(
      fc.string(),
      fc.constantFrom('', ', ', 'masterpiece, best quality', 'score_9, score_8_up, score_7_up, source_anime'),
      fc
        .array(fc.constantFrom('masterpiece', 'best quality', ', ', 'suf', 'pre', '1girl', ' ', ''), { maxLength: 6 })
        .map((a) => a.join('')),
    );
    fc.assert(
      fc.property(fc.constantFrom(...tagSets), prompt, (tags, p) => {
        expect(stripQualityTags(applyQualityTags(p, tags), tags)).toBe(p);
        expect(stripNegativeQualityTags(applyNegativeQualityTags(p, tags), tags)).toBe(p);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps every family text free of leading or trailing separators', () => {
    for (const family of Object.values(QUALITY_TAG_FAMILIES)) {
      for (const text of Object.values(family)) expect(text).toBe(text.replace(/^[,\s]+|[,\s]+$/g, ''));
    }
  });
});
