import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { api as defaultApi, onSessionExpired } from '../api/endpoints.ts';
import type { KomaApi } from '../api/endpoints.ts';
import { isApiError } from '../api/ApiError.ts';
import type { Credits, Locale, Preferences, User } from '../api/types.ts';
import { applyLocale, isLocale } from '../i18n/index.ts';
import { SessionContext } from './context.ts';
import type { Session, SessionStatus } from './context.ts';

export function SessionProvider({ children, api = defaultApi }: { children: ReactNode; api?: KomaApi }) {
  const [status, setStatus] = useState<SessionStatus>('loading');
  const [user, setUser] = useState<User | null>(null);
  const [credits, setCredits] = useState<Credits | null>(null);
  const [preferences, setPreferences] = useState<Preferences>({});
  const preferencesRef = useRef<Preferences>({});

  const refreshCredits = useCallback(async () => {
    try {
      setCredits(await api.credits.get());
    } catch (error) {
      console.error('Failed to refresh credits', error);
    }
  }, [api]);

  // After any sign-in: the stored locale wins over this device's choice (spec §3, stored preferences).
  const enter = useCallback(
    async (signedIn: User) => {
      setUser(signedIn);
      setCredits({ credits: signedIn.credits, purchasedCredits: signedIn.purchasedCredits });
      try {
        const { preferences: stored } = await api.preferences.get();
        preferencesRef.current = stored;
        setPreferences(stored);
        if (isLocale(stored.locale)) await applyLocale(stored.locale);
      } catch (error) {
        console.error('Failed to load preferences', error);
      }
      setStatus('signedIn');
      void refreshCredits();
    },
    [api, refreshCredits],
  );

  useEffect(() => {
    let cancelled = false;
    api.auth
      .session()
      .then(({ user: current }) => {
        if (cancelled) return undefined;
        if (current) return enter(current);
        setStatus('signedOut');
        return undefined;
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        if (!isApiError(error) || error.status !== 401) console.error('Failed to read the session', error);
        setStatus('signedOut');
      });
    return () => {
      cancelled = true;
    };
  }, [api, enter]);

  // A 401 from any data call means the cookie is gone: drop the user, and App's guard sends them to sign-in with
  // the current address as ?next=, so nothing they were looking at is forgotten.
  useEffect(
    () =>
      onSessionExpired(() => {
        setUser(null);
        setCredits(null);
        setStatus((current) => (current === 'signedIn' ? 'signedOut' : current));
      }),
    [],
  );

  const signIn = useCallback(
    async (email: string, password: string) => {
      const { user: signedIn } = await api.auth.signIn({ email, password });
      await enter(signedIn);
    },
    [api, enter],
  );

  const signUp = useCallback(
    async (email: string, password: string, name?: string) => {
      const { user: created } = await api.auth.signUp(name ? { email, password, name } : { email, password });
      // A new account starts with this device's language rather than the server default.
      const locale = document.documentElement.lang;
      if (isLocale(locale)) {
        await api.preferences.update({ locale }).catch((error: unknown) => {
          console.error('Failed to store the language preference', error);
        });
      }
      await enter(created);
    },
    [api, enter],
  );

  const signOut = useCallback(async () => {
    try {
      await api.auth.signOut();
    } finally {
      // Even if the server call failed, forget the user here: staying "signed in" on a broken session helps nobody.
      setUser(null);
      setCredits(null);
      preferencesRef.current = {};
      setPreferences({});
      setStatus('signedOut');
    }
  }, [api]);

  // PUT /api/preferences replaces the whole record, so every change is read-modify-write against the server's
  // latest copy (another tab may have changed something), one change at a time within this tab.
  const preferenceQueue = useRef<Promise<unknown>>(Promise.resolve());
  const updatePreferences = useCallback(
    (change: Partial<Preferences>): Promise<Preferences> => {
      const run = async () => {
        const optimistic = { ...preferencesRef.current, ...change };
        preferencesRef.current = optimistic;
        setPreferences(optimistic);
        const { preferences: latest } = await api.preferences.get();
        const { preferences: stored } = await api.preferences.update({ ...latest, ...change });
        preferencesRef.current = stored;
        setPreferences(stored);
        return stored;
      };
      const result = preferenceQueue.current.then(run, run);
      preferenceQueue.current = result.catch(() => undefined);
      return result;
    },
    [api],
  );

  const setLocale = useCallback(
    async (locale: Locale) => {
      await applyLocale(locale);
      if (status !== 'signedIn') return;
      try {
        await updatePreferences({ locale });
      } catch (error) {
        console.error('Failed to store the language preference', error);
      }
    },
    [status, updatePreferences],
  );

  const session = useMemo<Session>(
    () => ({
      status,
      user,
      credits,
      preferences,
      signIn,
      signUp,
      signOut,
      refreshCredits,
      setLocale,
      updatePreferences,
    }),
    [status, user, credits, preferences, signIn, signUp, signOut, refreshCredits, setLocale, updatePreferences],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
