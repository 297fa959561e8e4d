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
    const current = await this.lockedBalance(trx, userId);
    if (current.credits + current.purchasedCredits < amount) throw notEnoughCredits();
    const fromCredits = Math.min(current.credits, amount);
    return this.write(trx, userId, 'charge', -fromCredits, -(amount - fromCredits), reason, ref);
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
    const current = await this.lockedBalance(trx, userId);
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
    const balance = await this.write(trx, userId, 'refund', refunded - toPurchased, toPurchased, reason, ref);
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
      await this.lockedBalance(trx, userId);
      return this.write(trx, userId, kind, creditsDelta, purchasedDelta, reason, ref);
    });
  }

  // PostgreSQL needs the row lock; SQLite's single connection already serialises transactions.
  private async lockedBalance(trx: Database, userId: string): Promise<CreditBalance> {
    let query = trx.selectFrom('users').select(['credits', 'purchased_credits']).where('id', '=', userId);
    if (this.dialect === 'postgres') query = query.forUpdate();
    const row = await query.executeTakeFirst();
    if (!row) throw notFound('User');
    return { credits: Number(row.credits), purchasedCredits: Number(row.purchased_credits) };
  }

  private async write(
    trx: Database,
    userId: string,
    kind: CreditLedgerTable['kind'],
    creditsDelta: number,
    purchasedDelta: number,
    reason: string,
    ref: string | null,
  ): Promise<CreditBalance> {
    const updated = await trx
      .updateTable('users')
      .set((eb) => ({
        credits: eb('credits', '+', creditsDelta),
        purchased_credits: eb('purchased_credits', '+', purchasedDelta),
      }))
      .where('id', '=', userId)
      .returning(['credits', 'purchased_credits'])
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('credit_ledger')
      .values({
        id: newId(),
        user_id: userId,
        kind,
        credits_delta: creditsDelta,
        purchased_delta: purchasedDelta,
        reason,
        ref,
        created_at: this.now().toISOString(),
      })
      .execute();
    return { credits: Number(updated.credits), purchasedCredits: Number(updated.purchased_credits) };
  }
}
