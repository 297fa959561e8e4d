import { createContext, useContext } from 'react';
import type { Credits, Locale, Preferences, User } from '../api/types.ts';

export type SessionStatus = 'loading' | 'signedOut' | 'signedIn';

export interface Session {
  status: SessionStatus;
  user: User | null;
  /** Latest balance from GET /api/credits (falls back to the user's own fields until it arrives). */
  credits: Credits | null;
  preferences: Preferences;
  signIn: (email: string, password: string) => Promise<void>;
  signUp: (email: string, password: string, name?: string) => Promise<void>;
  signOut: () => Promise<void>;
  /** Re-reads the balance; the editor calls it when a job leaves the queue (spec §4). */
  refreshCredits: () => Promise<void>;
  /** Switches the language now and stores it as the user's preference when signed in. */
  setLocale: (locale: Locale) => Promise<void>;
  /**
   * Stores a change to the user's preferences (fps, preferredFont, loras, …): merged into the server's latest
   * record, because PUT /api/preferences replaces the whole record. Rejects with ApiError when the save fails.
   */
  updatePreferences: (change: Partial<Preferences>) => Promise<Preferences>;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}

/** credits + purchasedCredits, the total the header shows. */
export function creditTotal(session: Pick<Session, 'credits' | 'user'>): number | null {
  const source = session.credits ?? session.user;
  return source ? source.credits + source.purchasedCredits : null;
}
