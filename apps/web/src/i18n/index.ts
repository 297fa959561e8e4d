import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { en } from './en.ts';
import { ja } from './ja.ts';
import type { Locale } from '../api/types.ts';

export const LOCALES: readonly Locale[] = ['en', 'ja'];
export const DEFAULT_LOCALE: Locale = 'en';
const STORAGE_KEY = 'koma.locale';

export function isLocale(value: unknown): value is Locale {
  return value === 'en' || value === 'ja';
}

/** The locale to start with before the server's preference is known: last choice on this device, then the browser. */
export function initialLocale(): Locale {
  try {
    const stored = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (isLocale(stored)) return stored;
  } catch {
    // Storage can be blocked (private mode); the browser language still works.
  }
  const browser = globalThis.navigator?.language?.slice(0, 2);
  return isLocale(browser) ? browser : DEFAULT_LOCALE;
}

/** The app's i18next instance; the editor screens use it through useT(). */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, ja: { translation: ja } },
  lng: initialLocale(),
  fallbackLng: DEFAULT_LOCALE,
  interpolation: { escapeValue: false }, // React escapes already
  returnNull: false,
  initAsync: false,
});

/** Applies a locale to i18next, the document's lang attribute and this device's remembered choice. */
export async function applyLocale(locale: Locale): Promise<void> {
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, locale);
  } catch {
    // Not remembering on this device is fine: the server preference is the real store.
  }
  if (i18n.language !== locale) await i18n.changeLanguage(locale);
}

/** `const t = useT(); t('dashboard.create')` — re-renders when the language changes. */
export function useT() {
  return useTranslation(undefined, { i18n }).t;
}

export { en, ja };
export type { Resources } from './en.ts';
