import { useState } from 'react';
import { i18n, useT } from '../i18n/index.ts';
import { creditTotal, useSession } from '../session/context.ts';
import { Link } from '../router/Link.tsx';
import { navigate } from '../router/history.ts';
import { paths } from '../router/routes.ts';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import './header.css';

/** The signed-in app bar: brand (home), credit total, language and sign-out. */
export function Header() {
  const t = useT();
  const session = useSession();
  const [signingOut, setSigningOut] = useState(false);
  const total = creditTotal(session);

  const signOut = async () => {
    setSigningOut(true);
    try {
      await session.signOut();
    } catch (error) {
      console.error('Sign-out failed on the server; the session is forgotten here anyway', error);
    }
    navigate(paths.signin(), { replace: true });
  };

  return (
    <header className="app-header">
      <Link to={paths.dashboard()} className="app-header__brand" aria-label={t('header.dashboard')}>
        {t('common.appName')}
      </Link>
      <div className="app-header__tools">
        {total !== null && (
          <span className="app-header__credits" title={t('header.credits_label')} data-testid="credit-total">
            <span aria-hidden="true" className="app-header__coin" />
            <span className="visually-hidden">{t('header.credits_label')}: </span>
            {t('header.credits', { amount: total.toLocaleString(i18n.resolvedLanguage) })}
          </span>
        )}
        <LanguageSwitch />
        <button type="button" className="button button--ghost" onClick={() => void signOut()} disabled={signingOut}>
          {t('header.signOut')}
        </button>
      </div>
    </header>
  );
}
