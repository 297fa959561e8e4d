import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api/ApiError.ts';
import { authErrorKey, validateAuthForm } from '../src/screens/auth/validateAuth.ts';

const ok = { email: 'mika@example.com', password: 'correct horse', name: '' };

describe('validateAuthForm', () => {
  it('accepts a well-formed form', () => {
    expect(validateAuthForm('signin', ok)).toEqual({});
    expect(validateAuthForm('signup', { ...ok, name: 'Mika' })).toEqual({});
  });

  it('names each empty or malformed field', () => {
    expect(validateAuthForm('signin', { email: ' ', password: '', name: '' })).toEqual({
      email: 'auth.errors.email_required',
      password: 'auth.errors.password_required',
    });
    expect(validateAuthForm('signin', { ...ok, email: 'mika@' })).toEqual({ email: 'auth.errors.email_invalid' });
  });

  it('asks for 8 characters only when choosing a password', () => {
    expect(validateAuthForm('signup', { ...ok, password: 'short' })).toEqual({
      password: 'auth.errors.password_too_short',
    });
    expect(validateAuthForm('signin', { ...ok, password: 'short' })).toEqual({});
    expect(validateAuthForm('signup', { ...ok, name: 'x'.repeat(101) })).toEqual({ name: 'auth.errors.name_too_long' });
  });
});

describe('authErrorKey', () => {
  it('maps the server codes to a field or the whole form', () => {
    expect(authErrorKey(new ApiError(401, 'invalid_credentials', 'wrong'))).toEqual({
      field: null,
      key: 'auth.errors.invalid_credentials',
    });
    expect(authErrorKey(new ApiError(409, 'email_taken', 'taken'))).toEqual({
      field: 'email',
      key: 'auth.errors.email_taken',
    });
    expect(authErrorKey(new ApiError(429, 'rate_limited', 'slow down')).key).toBe('auth.errors.rate_limited');
    expect(authErrorKey(new ApiError(0, 'network_error', 'x')).key).toBe('common.network_error');
    expect(authErrorKey(new ApiError(400, 'invalid_request', 'body/email: Invalid email address'))).toEqual({
      field: 'email',
      key: 'auth.errors.email_invalid',
    });
  });

  it('keeps the message of anything unexpected', () => {
    expect(authErrorKey(new ApiError(500, 'internal', 'db down'))).toEqual({
      field: null,
      key: 'auth.errors.generic',
      message: 'db down',
    });
  });
});
