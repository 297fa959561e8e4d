// Client-side checks of the sign-in and sign-up forms. They only catch what can be known without the server
// (empty, malformed, too short); the server stays the judge and its codes map to messages in authErrorKey().
import { isApiError } from '../../api/ApiError.ts';

/** As the server's password policy (apps/server/src/services/password-policy.ts). */
export const PASSWORD_MIN_LENGTH = 12;
export const NAME_MAX_LENGTH = 100;

export type AuthMode = 'signin' | 'signup';
export interface AuthFields {
  email: string;
  password: string;
  name: string;
}
/** Field → i18n key of its error. */
export type AuthFieldErrors = Partial<Record<keyof AuthFields, string>>;

// Deliberately loose: one @, something on each side, a dot in the domain. The server confirms the rest.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateAuthForm(mode: AuthMode, fields: AuthFields): AuthFieldErrors {
  const errors: AuthFieldErrors = {};
  const email = fields.email.trim();
  if (email === '') errors.email = 'auth.errors.email_required';
  else if (!EMAIL_SHAPE.test(email)) errors.email = 'auth.errors.email_invalid';
  if (fields.password === '') errors.password = 'auth.errors.password_required';
  else if (mode === 'signup' && fields.password.length < PASSWORD_MIN_LENGTH)
    errors.password = 'auth.errors.password_too_short';
  if (mode === 'signup' && fields.name.trim().length > NAME_MAX_LENGTH) errors.name = 'auth.errors.name_too_long';
  return errors;
}

/** Which field a server error belongs to (null: the form as a whole) and the i18n key that explains it. */
export function authErrorKey(error: unknown): { field: keyof AuthFields | null; key: string; message?: string } {
  if (isApiError(error)) {
    if (error.code === 'invalid_credentials') return { field: null, key: 'auth.errors.invalid_credentials' };
    if (error.code === 'email_taken') return { field: 'email', key: 'auth.errors.email_taken' };
    // The password policy: too short, or common / easy to guess / the email itself.
    if (error.code === 'weak_password') {
      const short = /at least/.test(error.message);
      return { field: 'password', key: short ? 'auth.errors.password_too_short' : 'auth.errors.password_weak' };
    }
    if (error.status === 503) return { field: null, key: 'auth.errors.unavailable' };
    if (error.status === 429) return { field: null, key: 'auth.errors.rate_limited' };
    if (error.status === 0) return { field: null, key: 'common.network_error' };
    // The server names the offending field in its invalid_request message ("body/email: …").
    if (error.code === 'invalid_request' && /email/i.test(error.message))
      return { field: 'email', key: 'auth.errors.email_invalid' };
    if (error.code === 'invalid_request' && /password/i.test(error.message))
      return { field: 'password', key: 'auth.errors.password_too_short' };
    return { field: null, key: 'auth.errors.generic', message: error.message };
  }
  return { field: null, key: 'auth.errors.generic', message: error instanceof Error ? error.message : String(error) };
}
