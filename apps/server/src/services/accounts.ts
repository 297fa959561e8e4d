import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import { newId } from '../ids.ts';
import { deleteSession, findSessionUser, insertSession } from '../repositories/sessions.ts';
import { findUserByEmail, findUserById, insertUser, toPublicUser, type PublicUser } from '../repositories/users.ts';
import type { CreditLedger } from './credit-ledger.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

/** A new session: the token goes in the cookie, only its hash is stored. */
export interface NewSession {
  user: PublicUser;
  token: string;
  expiresAt: Date;
}

/** Hash of a session token as stored in the sessions table. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** Emails compare case-insensitively and without surrounding spaces. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

// Signing in as an unknown email still runs scrypt once, so timing does not tell which emails exist.
const dummyHash = hashPassword(randomBytes(16).toString('hex'));

/** Accounts and sessions: sign up, sign in, sign out, who is this cookie. */
export class Accounts {
  constructor(
    private readonly db: Database,
    private readonly ledger: CreditLedger,
    private readonly options: { startingCredits: number; sessionDays: number },
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Creates a user with the starting grant; 409 email_taken when the email is in use. */
  async createUser(input: {
    email: string;
    password: string;
    name?: string | undefined;
    plan?: 'free' | 'subscriber';
  }): Promise<PublicUser> {
    const email = normaliseEmail(input.email);
    if (await findUserByEmail(this.db, email)) {
      throw new HttpError(409, 'email_taken', 'An account with this email already exists.');
    }
    const id = newId();
    const passwordHash = await hashPassword(input.password);
    try {
      await insertUser(this.db, {
        id,
        email,
        name: input.name?.trim() || email.split('@')[0] || email,
        passwordHash,
        plan: input.plan ?? 'free',
        createdAt: this.now().toISOString(),
      });
    } catch (err) {
      // Two sign-ups racing for one email: the unique index decides.
      if (await findUserByEmail(this.db, email)) {
        throw new HttpError(409, 'email_taken', 'An account with this email already exists.');
      }
      throw err;
    }
    if (this.options.startingCredits > 0) {
      await this.ledger.grant(id, this.options.startingCredits, 'starting grant', 'signup');
    }
    return this.getUser(id);
  }

  /** Signs up and opens a session. */
  async signUp(input: { email: string; password: string; name?: string | undefined }): Promise<NewSession> {
    const user = await this.createUser(input);
    return this.openSession(user);
  }

  /** Checks the password and opens a session; 401 invalid_credentials on any mismatch. */
  async signIn(email: string, password: string): Promise<NewSession> {
    const row = await findUserByEmail(this.db, normaliseEmail(email));
    const ok = row
      ? await verifyPassword(password, row.password_hash)
      : await verifyPassword(password, await dummyHash);
    if (!row || !ok) throw new HttpError(401, 'invalid_credentials', 'Email or password is wrong.');
    return this.openSession(toPublicUser(row));
  }

  /** Ends the session behind a token; unknown tokens are ignored. */
  async signOut(token: string): Promise<void> {
    await deleteSession(this.db, hashToken(token));
  }

  /** The user behind a session token, or null when it is unknown or expired. */
  async userForToken(token: string): Promise<PublicUser | null> {
    const row = await findSessionUser(this.db, hashToken(token), this.now().toISOString());
    return row ? toPublicUser(row) : null;
  }

  /** A user by id; 404 when absent. */
  async getUser(id: string): Promise<PublicUser> {
    const row = await findUserById(this.db, id);
    if (!row) throw new HttpError(404, 'not_found', 'User not found.');
    return toPublicUser(row);
  }

  /** A user by email, or undefined. */
  async findByEmail(email: string): Promise<PublicUser | undefined> {
    const row = await findUserByEmail(this.db, normaliseEmail(email));
    return row ? toPublicUser(row) : undefined;
  }

  private async openSession(user: PublicUser): Promise<NewSession> {
    const token = randomBytes(32).toString('base64url');
    const created = this.now();
    const expiresAt = new Date(created.getTime() + this.options.sessionDays * 24 * 3600 * 1000);
    await insertSession(this.db, {
      tokenHash: hashToken(token),
      userId: user.id,
      createdAt: created.toISOString(),
      expiresAt: expiresAt.toISOString(),
    });
    return { user, token, expiresAt };
  }
}
