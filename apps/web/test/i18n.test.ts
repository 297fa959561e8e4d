import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en.ts';
import { ja } from '../src/i18n/ja.ts';
import { fontStack } from '../src/fontFamilies.ts';

function flatten(tree: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value as object, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

describe('translations', () => {
  const enKeys = flatten(en);
  const jaKeys = flatten(ja);

  it('has the same keys in English and Japanese', () => {
    expect([...jaKeys.keys()].sort()).toEqual([...enKeys.keys()].sort());
  });

  it('keeps every interpolation placeholder in both languages and leaves nothing empty', () => {
    for (const [key, text] of enKeys) {
      const other = jaKeys.get(key) ?? '';
      expect(other, key).not.toBe('');
      expect(placeholders(other), key).toEqual(placeholders(text));
    }
  });

  it('carries the spec messages word for word', () => {
    expect(en.common.failed_to_perform_image_operation).toBe('Failed to perform the image operation');
    expect(en.common.could_not_find_flow_image).toBe('Could not find flow image');
    expect(en.common.failed_to_load_workspace).toBe('Failed to load workspace {{id}}');
  });

  it('really translates the Japanese side', () => {
    const untranslated = [...jaKeys].filter(
      ([key, text]) => text === enKeys.get(key) && !/^(common\.appName|language\.)/.test(key),
    );
    expect(untranslated).toEqual([]);
  });
});

describe('fontStack', () => {
  it('maps the spec default Komika to the bundled lettering font', () => {
    expect(fontStack('Komika')).toMatch(/^'Comic Neue'/);
    expect(fontStack('Bangers')).toMatch(/^'Bangers'/);
  });
  it('uses the Japanese gothic stack for vertical text', () => {
    expect(fontStack('Komika', true)).toMatch(/^'Noto Sans JP'/);
  });
  it('keeps a Japanese face for vertical text, and knows every catalogue font by name', () => {
    expect(fontStack('Zen Maru Gothic', true)).toMatch(/^'Zen Maru Gothic', 'Noto Sans JP'/);
    expect(fontStack('Patrick Hand')).toMatch(/^'Patrick Hand', 'Noto Sans JP'/);
    expect(fontStack('Patrick Hand', true)).toMatch(/^'Noto Sans JP'/);
  });
  it('keeps an unknown family first, with the bundled fonts behind it', () => {
    expect(fontStack("Evil'Font")).toMatch(/^'EvilFont', 'Comic Neue'/);
  });
});
