import { useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useT } from '../../i18n/index.ts';
import { useSession } from '../../session/context.ts';
import { Link } from '../../router/Link.tsx';
import { navigate, useLocation } from '../../router/history.ts';
import { paths, safeNext } from '../../router/routes.ts';
import { LanguageSwitch } from '../../components/LanguageSwitch.tsx';
import { authErrorKey, validateAuthForm } from './validateAuth.ts';
import type { AuthFieldErrors, AuthFields, AuthMode } from './validateAuth.ts';
import './auth.css';

/** The sign-in and sign-up page: one form, two modes. Enter submits from any field. */
export function AuthScreen({ mode }: { mode: AuthMode }) {
  const t = useT();
  const session = useSession();
  const location = useLocation();
  const formId = useId();
  const [fields, setFields] = useState<AuthFields>({ email: '', password: '', name: '' });
  const [errors, setErrors] = useState<AuthFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refs = {
    email: useRef<HTMLInputElement>(null),
    password: useRef<HTMLInputElement>(null),
    name: useRef<HTMLInputElement>(null),
  };
  const next = safeNext(location.search);
  const isSignUp = mode === 'signup';

  const update = (field: keyof AuthFields) => (value: string) => {
    setFields((prev) => ({ ...prev, [field]: value }));
    // A fixed field stops shouting; the rest keep their message until the next submit.
    setErrors((prev) => ({ ...prev, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = validateAuthForm(mode, fields);
    setErrors(found);
    setFormError(null);
    const first = (['name', 'email', 'password'] as const).find((f) => found[f]);
    if (first) {
      refs[first].current?.focus();
      return;
    }
    setBusy(true);
    try {
      if (isSignUp) await session.signUp(fields.email.trim(), fields.password, fields.name.trim() || undefined);
      else await session.signIn(fields.email.trim(), fields.password);
      navigate(next, { replace: true });
    } catch (error) {
      const { field, key, message } = authErrorKey(error);
      const text = t(key, { message });
      if (field) {
        setErrors({ [field]: key });
        refs[field].current?.focus();
      } else setFormError(text);
      setBusy(false);
    }
  };

  const fieldProps = (field: keyof AuthFields) => {
    const errorKey = errors[field];
    return {
      id: `${formId}-${field}`,
      ref: refs[field],
      value: fields[field],
      onChange: (e: { target: { value: string } }) => update(field)(e.target.value),
      'aria-invalid': errorKey ? true : undefined,
      'aria-describedby': errorKey ? `${formId}-${field}-error` : undefined,
    };
  };
  const fieldError = (field: keyof AuthFields) => {
    const errorKey = errors[field];
    return errorKey ? (
      <p className="auth__field-error" id={`${formId}-${field}-error`} role="alert">
        {t(errorKey)}
      </p>
    ) : null;
  };

  return (
    <main className="auth">
      <div className="auth__lang">
        <LanguageSwitch />
      </div>
      <section className="auth__card" aria-labelledby={`${formId}-title`}>
        <p className="auth__brand">{t('common.appName')}</p>
        <h1 id={`${formId}-title`} className="auth__title">
          {t(isSignUp ? 'auth.signUpTitle' : 'auth.signInTitle')}
        </h1>
        <p className="auth__tagline">{t('auth.tagline')}</p>
        <form className="auth__form" noValidate onSubmit={(e) => void submit(e)}>
          {isSignUp && (
            <div className="auth__field">
              <label htmlFor={`${formId}-name`}>{t('auth.name')}</label>
              <input {...fieldProps('name')} type="text" name="name" autoComplete="name" maxLength={200} />
              {fieldError('name')}
            </div>
          )}
          <div className="auth__field">
            <label htmlFor={`${formId}-email`}>{t('auth.email')}</label>
            <input {...fieldProps('email')} type="email" name="email" autoComplete="email" inputMode="email" />
            {fieldError('email')}
          </div>
          <div className="auth__field">
            <label htmlFor={`${formId}-password`}>{t('auth.password')}</label>
            <input
              {...fieldProps('password')}
              type="password"
              name="password"
              autoComplete={isSignUp ? 'new-password' : 'current-password'}
            />
            {isSignUp && !errors.password && <p className="auth__hint">{t('auth.passwordHint')}</p>}
            {fieldError('password')}
          </div>
          {formError && (
            <p className="auth__form-error" role="alert">
              {formError}
            </p>
          )}
          <button className="button button--primary auth__submit" type="submit" disabled={busy}>
            {busy ? t('auth.submitting') : t(isSignUp ? 'auth.signUp' : 'auth.signIn')}
          </button>
        </form>
        <p className="auth__switch">
          {t(isSignUp ? 'auth.haveAccount' : 'auth.noAccount')}{' '}
          <Link to={isSignUp ? paths.signin(nextParam(location.search)) : paths.signup(nextParam(location.search))}>
            {t(isSignUp ? 'auth.signIn' : 'auth.signUp')}
          </Link>
        </p>
      </section>
    </main>
  );
}

function nextParam(search: string): string | undefined {
  return new URLSearchParams(search).get('next') ?? undefined;
}
