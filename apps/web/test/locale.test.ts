import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyLocale, i18n, initialLocale } from '../src/i18n/index.ts';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    data,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('initialLocale', () => {
  it('prefers the choice remembered on this device', () => {
    vi.stubGlobal('localStorage', memoryStorage({ 'koma.locale': 'ja' }));
    vi.stubGlobal('navigator', { language: 'en-GB' });
    expect(initialLocale()).toBe('ja');
  });

  it('falls back to the browser language, then English', () => {
    vi.stubGlobal('localStorage', memoryStorage());
    vi.stubGlobal('navigator', { language: 'ja-JP' });
    expect(initialLocale()).toBe('ja');
    vi.stubGlobal('navigator', { language: 'fr-FR' });
    expect(initialLocale()).toBe('en');
  });

  it('ignores a remembered value that is not a supported locale, and blocked storage', () => {
    vi.stubGlobal('localStorage', memoryStorage({ 'koma.locale': 'de' }));
    vi.stubGlobal('navigator', { language: 'en-US' });
    expect(initialLocale()).toBe('en');
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('SecurityError');
      },
    });
    expect(initialLocale()).toBe('en');
  });
});

describe('applyLocale', () => {
  it('switches i18next and remembers the choice', async () => {
    const storage = memoryStorage();
    vi.stubGlobal('localStorage', storage);
    await applyLocale('ja');
    expect(i18n.language).toBe('ja');
    expect(i18n.t('dashboard.title')).toBe('ワークスペース');
    expect(i18n.t('common.failed_to_perform_image_operation')).toBe('画像の処理に失敗しました');
    expect(storage.data.get('koma.locale')).toBe('ja');
    await applyLocale('en');
    expect(i18n.t('common.failed_to_load_workspace', { id: 'w1' })).toBe('Failed to load workspace w1');
  });
});
