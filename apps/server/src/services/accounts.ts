import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import { newId } from '../ids.ts';
import { deleteSession, findSessionUser, insertSession, touchSession } from '../repositories/sessions.ts';
import { findUserByEmail, findUserById, insertUser, toPublicUser, type PublicUser } from '../repositories/users.ts';
import type { CreditLedger } from './credit-ledger.ts';
import { checkPasswordPolicy } from './password-policy.ts';
import { DEFAULT_SCRYPT_LOG2N, hashPassword, needsRehash, verifyPassword } from './passwords.ts';

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

const DAY_MS = 24 * 3600 * 1000;
/** A session's last use is written at most this often, so signed-in requests do not each cost a write. */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

export interface AccountOptions {
  startingCredits: number;
  /** Absolute session lifetime from sign-in. */
  sessionDays: number;
  /** A session unused this long ends. */
  sessionIdleDays: number;
  /** scrypt cost (log2 N) for new hashes; older, cheaper hashes are re-hashed at sign-in. */
  scryptLog2N?: number;
}

/** Accounts and sessions: sign up, sign in, sign out, who is this cookie. */
export class Accounts {
  // Signing in as an unknown email still runs scrypt once at the current cost, so timing does not tell which emails
  // exist.
  private readonly dummyHash: Promise<string>;

  constructor(
    private readonly db: Database,
    private readonly ledger: CreditLedger,
    private readonly options: AccountOptions,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.dummyHash = hashPassword(randomBytes(16).toString('hex'), this.cost);
    this.dummyHash.catch(() => undefined);
  }

  private get cost(): number {
    return this.options.scryptLog2N ?? DEFAULT_SCRYPT_LOG2N;
  }

  /** The earliest last use a live session may have. */
  idleSince(now = this.now()): Date {
    return new Date(now.getTime() - this.options.sessionIdleDays * DAY_MS);
  }

  /**
   * Creates a user with the starting grant; 409 email_taken when the email is in use, 400 weak_password when the
   * password is short or common. `checkPolicy: false` is for operators' tools only.
   */
  async createUser(input: {
    email: string;
    password: string;
    name?: string | undefined;
    plan?: 'free' | 'subscriber';
    checkPolicy?: boolean;
  }): Promise<PublicUser> {
    const email = normaliseEmail(input.email);
    if (input.checkPolicy !== false) checkPasswordPolicy(input.password, email);
    if (await findUserByEmail(this.db, email)) {
      throw new HttpError(409, 'email_taken', 'An account with this email already exists.');
    }
    const id = newId();
    const passwordHash = await hashPassword(input.password, this.cost);
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

  /** Signs up and opens a session (ending the session the request came with, if any). */
  async signUp(
    input: { email: string; password: string; name?: string | undefined },
    previousToken?: string,
  ): Promise<NewSession> {
    const user = await this.createUser(input);
    return this.openSession(user, previousToken);
  }

  /**
   * Checks the password and opens a new session, ending the one the request came with (a session id never
   * survives a sign-in); 401 invalid_credentials on any mismatch. A hash made at a lower cost than today's is
   * replaced by one at today's cost, transparently.
   */
  async signIn(email: string, password: string, previousToken?: string): Promise<NewSession> {
    const row = await findUserByEmail(this.db, normaliseEmail(email));
    const ok = row
      ? await verifyPassword(password, row.password_hash)
      : await verifyPassword(password, await this.dummyHash);
    if (!row || !ok) throw new HttpError(401, 'invalid_credentials', 'Email or password is wrong.');
    if (needsRehash(row.password_hash, this.cost)) {
      const upgraded = await hashPassword(password, this.cost);
      await this.db.updateTable('users').set({ password_hash: upgraded }).where('id', '=', row.id).execute();
    }
    return this.openSession(toPublicUser(row), previousToken);
  }

  /** Ends the session behind a token; unknown tokens are ignored. */
  async signOut(token: string): Promise<void> {
    await deleteSession(this.db, hashToken(token));
  }

  /** The user behind a session token, or null when it is unknown, past its lifetime or idle too long. */
  async userForToken(token: string): Promise<PublicUser | null> {
    const now = this.now();
    const tokenHash = hashToken(token);
    const row = await findSessionUser(this.db, tokenHash, now.toISOString(), this.idleSince(now).toISOString());
    if (!row) return null;
    const seen = Date.parse(row.session_seen_at ?? '');
    if (!(now.getTime() - seen < TOUCH_EVERY_MS)) await touchSession(this.db, tokenHash, now.toISOString());
    return toPublicUser(row);
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

  private async openSession(user: PublicUser, previousToken?: string): Promise<NewSession> {
    if (previousToken) await deleteSession(this.db, hashToken(previousToken));
    const token = randomBytes(32).toString('base64url');
    const created = this.now();
    const expiresAt = new Date(created.getTime() + this.options.sessionDays * DAY_MS);
    await insertSession(this.db, {
      tokenHash: hashToken(token),
      userId: user.id,
      createdAt: created.toISOString(),
      expiresAt: expiresAt.toISOString(),
    });
    return { user, token, expiresAt };
  }
}
