import type { Database, DatabaseDialect } from '../db/database.ts';
import type { CreditLedgerTable } from '../db/schema.ts';
import { HttpError, notEnoughCredits, notFound } from '../http/errors.ts';
import { newId } from '../ids.ts';

/** The two balances a user holds (generation.md §7: the total is shown). */
export interface CreditBalance {
  credits: number;
  purchasedCredits: number;
}

function positiveAmount(amount: number): void {
  if (!Number.isInteger(amount) || amount <= 0) {
    throw new HttpError(400, 'invalid_request', `amount: must be a positive integer, got ${amount}`);
  }
}

/**
 * Credits as a ledger: every change is a row (grant, purchase, charge, refund) written in the same
 * transaction as the balance on the users row, and the balance can never go below zero.
 */
export class CreditLedger {
  constructor(
    private readonly db: Database,
    private readonly dialect: DatabaseDialect,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Current balances; 404 when the user does not exist. */
  async balance(userId: string): Promise<CreditBalance> {
    const row = await this.db
      .selectFrom('users')
      .select(['credits', 'purchased_credits'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound('User');
    return { credits: Number(row.credits), purchasedCredits: Number(row.purchased_credits) };
  }

  /** Adds plan credits (sign-up grant, admin grant). */
  async grant(userId: string, amount: number, reason: string, ref: string | null = null): Promise<CreditBalance> {
    positiveAmount(amount);
    return this.apply(userId, 'grant', amount, 0, reason, ref);
  }

  /** Adds purchased credits. */
  async purchase(userId: string, amount: number, reason: string, ref: string | null = null): Promise<CreditBalance> {
    positiveAmount(amount);
    return this.apply(userId, 'purchase', 0, amount, reason, ref);
  }

  /**
   * Takes `amount` credits, plan credits first and purchased credits after. Atomic: throws
   * `not_enough_credits` (400) and changes nothing when the total would go negative.
   * `ref` names what was paid for (a job id) so a refund can find it.
   */
  async charge(userId: string, amount: number, reason: string, ref: string): Promise<CreditBalance> {
    return this.db.transaction().execute((trx) => this.chargeWithin(trx, userId, amount, reason, ref));
  }

  /**
   * `charge` inside a transaction the caller already holds, so that paying and what is paid for (a job
   * row) commit or roll back together. Pass the transaction, not the plain database handle.
   */
  async chargeWithin(
    trx: Database,
    userId: string,
    amount: number,
    reason: string,
    ref: string,
  ): Promise<CreditBalance> {
    positiveAmount(amount);
    const current = await lockBalance(trx, this.dialect, userId);
    const { fromCredits, fromPurchased } = splitCharge(current, amount);
    return writeEntry(trx, {
      userId,
      kind: 'charge',
      creditsDelta: -fromCredits,
      purchasedDelta: -fromPurchased,
      reason,
      ref,
      at: this.now(),
    });
  }

  /**
   * Gives back up to `amount` of what was charged under `ref`, into the buckets it came from.
   * Never refunds more than was charged, so running it twice for a failed job is harmless.
   * Returns how much was refunded (0 when nothing was left to refund) and the new balance.
   */
  async refund(
    userId: string,
    amount: number,
    reason: string,
    ref: string,
  ): Promise<{ refunded: number; balance: CreditBalance }> {
    return this.db.transaction().execute((trx) => this.refundWithin(trx, userId, amount, reason, ref));
  }

  /** `refund` inside a transaction the caller already holds (e.g. with marking a job failed). */
  async refundWithin(
    trx: Database,
    userId: string,
    amount: number,
    reason: string,
    ref: string,
  ): Promise<{ refunded: number; balance: CreditBalance }> {
    positiveAmount(amount);
    const current = await lockBalance(trx, this.dialect, userId);
    const rows = await trx
      .selectFrom('credit_ledger')
      .select(['kind', 'credits_delta', 'purchased_delta'])
      .where('user_id', '=', userId)
      .where('ref', '=', ref)
      .where('kind', 'in', ['charge', 'refund'])
      .execute();
    let openCredits = 0;
    let openPurchased = 0;
    for (const row of rows) {
      openCredits -= Number(row.credits_delta);
      openPurchased -= Number(row.purchased_delta);
    }
    const refundable = Math.max(0, openCredits) + Math.max(0, openPurchased);
    const refunded = Math.min(amount, refundable);
    if (refunded === 0) return { refunded: 0, balance: current };
    const toPurchased = Math.min(refunded, Math.max(0, openPurchased));
    const balance = await writeEntry(trx, {
      userId,
      kind: 'refund',
      creditsDelta: refunded - toPurchased,
      purchasedDelta: toPurchased,
      reason,
      ref,
      at: this.now(),
    });
    return { refunded, balance };
  }

  /** The user's ledger, newest first. */
  async history(userId: string, limit = 50, offset = 0): Promise<CreditLedgerTable[]> {
    return this.db
      .selectFrom('credit_ledger')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  private async apply(
    userId: string,
    kind: CreditLedgerTable['kind'],
    creditsDelta: number,
    purchasedDelta: number,
    reason: string,
    ref: string | null,
  ): Promise<CreditBalance> {
    return this.db.transaction().execute(async (trx) => {
      await lockBalance(trx, this.dialect, userId);
      return writeEntry(trx, { userId, kind, creditsDelta, purchasedDelta, reason, ref, at: this.now() });
    });
  }
}

/**
 * Locks the user's balance row for the rest of the transaction and reads it. It writes first: that takes
 * SQLite's write lock through the busy handler (a read-then-write transaction fails at once with
 * SQLITE_BUSY when a worker process wrote in between) and, with FOR UPDATE, PostgreSQL's row lock.
 */
export async function lockBalance(trx: Database, dialect: DatabaseDialect, userId: string): Promise<CreditBalance> {
  await trx
    .updateTable('users')
    .set((eb) => ({ credits: eb.ref('credits') }))
    .where('id', '=', userId)
    .execute();
  let query = trx.selectFrom('users').select(['credits', 'purchased_credits']).where('id', '=', userId);
  if (dialect === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw notFound('User');
  return { credits: Number(row.credits), purchasedCredits: Number(row.purchased_credits) };
}

/** How a charge of `amount` splits: plan credits first, then purchased; not_enough_credits when short. */
export function splitCharge(balance: CreditBalance, amount: number): { fromCredits: number; fromPurchased: number } {
  if (balance.credits + balance.purchasedCredits < amount) throw notEnoughCredits();
  const fromCredits = Math.min(balance.credits, amount);
  return { fromCredits, fromPurchased: amount - fromCredits };
}

/** One ledger entry: moves the balances and writes its row, inside the caller's transaction. */
export async function writeEntry(
  trx: Database,
  entry: {
    userId: string;
    kind: CreditLedgerTable['kind'];
    creditsDelta: number;
    purchasedDelta: number;
    reason: string;
    ref: string | null;
    at: Date;
  },
): Promise<CreditBalance> {
  const updated = await trx
    .updateTable('users')
    .set((eb) => ({
      credits: eb('credits', '+', entry.creditsDelta),
      purchased_credits: eb('purchased_credits', '+', entry.purchasedDelta),
    }))
    .where('id', '=', entry.userId)
    .returning(['credits', 'purchased_credits'])
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('credit_ledger')
    .values({
      id: newId(),
      user_id: entry.userId,
      kind: entry.kind,
      credits_delta: entry.creditsDelta,
      purchased_delta: entry.purchasedDelta,
      reason: entry.reason,
      ref: entry.ref,
      created_at: entry.at.toISOString(),
    })
    .execute();
  return { credits: Number(updated.credits), purchasedCredits: Number(updated.purchased_credits) };
}
