import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n, isLocale, LOCALES } from '../i18n/index.ts';
import { useSession } from '../session/context.ts';

/** A labelled select of the offered languages; signed in, the choice is stored as the user's preference. */
export function LanguageSwitch() {
  const { t } = useTranslation(undefined, { i18n });
  const { setLocale } = useSession();
  const id = useId();
  const current = isLocale(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  return (
    <span className="language-switch">
      <label htmlFor={id} className="visually-hidden">
        {t('header.language')}
      </label>
      <select
        id={id}
        className="language-switch__select"
        value={current}
        onChange={(e) => {
          if (isLocale(e.target.value)) void setLocale(e.target.value);
        }}
      >
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {t(`language.${locale}`)}
          </option>
        ))}
      </select>
    </span>
  );
}
