import { parseArgs } from 'node:util';
import type { ServerConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { ENGINE_ADMIN_USAGE, engineAdmin } from './engines/admin.ts';
import { HttpError } from './http/errors.ts';
import { updateUserFlags } from './repositories/users.ts';
import { Accounts } from './services/accounts.ts';
import { CreditLedger } from './services/credit-ledger.ts';
import { sweepOrphanBlobs } from './services/orphan-sweep.ts';
import { createBlobStore } from './storage/blob-store.ts';

/** Usage text of `npm run admin -- …`. */
export const ADMIN_USAGE = `Usage: npm run admin -- <command> [options]

  create-user --email E --password P [--name N] [--plan free|subscriber]
  grant       --email E --amount N [--reason R]     add plan credits
  purchase    --email E --amount N [--reason R]     add purchased credits
  set-plan    --email E --plan free|subscriber
  set-restricted --email E --value true|false
  show        --email E
  sweep-orphans [--older-than SECONDS]              delete stored bytes no image owns (default: older than 1 h)
${ENGINE_ADMIN_USAGE}

Uses the same environment as the server (DATA_DIR, DATABASE_URL, STARTING_CREDITS, ENGINES_CONFIG).`;

/** A failure the admin command reports as a message and exit code 1. */
export class AdminError extends Error {}

function need(value: string | undefined, name: string): string {
  if (!value) throw new AdminError(`--${name} is required`);
  return value;
}

function amountOf(value: string | undefined): number {
  const amount = Number(need(value, 'amount'));
  if (!Number.isInteger(amount) || amount <= 0) throw new AdminError('--amount must be a positive integer');
  return amount;
}

function planOf(value: string | undefined): 'free' | 'subscriber' {
  const plan = need(value, 'plan');
  if (plan !== 'free' && plan !== 'subscriber') throw new AdminError('--plan must be free or subscriber');
  return plan;
}

/** Runs one admin command against the configured database; returns the line(s) to print. */
export async function runAdmin(argv: string[], config: ServerConfig): Promise<string> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        name: { type: 'string' },
        plan: { type: 'string' },
        amount: { type: 'string' },
        reason: { type: 'string' },
        value: { type: 'string' },
        'older-than': { type: 'string' },
      },
    });
  } catch (err) {
    throw new AdminError(err instanceof Error ? err.message : String(err));
  }
  const { positionals, values } = parsed;
  const command = positionals[0];
  if (!command || command === 'help') return ADMIN_USAGE;
  const engines = await engineAdmin(command);
  if (engines !== undefined) return engines;
  const database = await openDatabase(config);
  try {
    const ledger = new CreditLedger(database.db, database.dialect);
    const accounts = new Accounts(database.db, ledger, config);
    const userByEmail = async () => {
      const user = await accounts.findByEmail(need(values.email, 'email'));
      if (!user) throw new AdminError(`No user with email ${values.email}`);
      return user;
    };
    const show = async (id: string) => JSON.stringify(await accounts.getUser(id));
    switch (command) {
      case 'create-user': {
        const password = need(values.password, 'password');
        const user = await accounts.createUser({
          email: need(values.email, 'email'),
          password,
          name: values.name,
          plan: values.plan ? planOf(values.plan) : 'free',
        });
        return `created ${JSON.stringify(user)}`;
      }
      case 'grant':
      case 'purchase': {
        const user = await userByEmail();
        const amount = amountOf(values.amount);
        const reason = values.reason ?? `admin ${command}`;
        if (command === 'grant') await ledger.grant(user.id, amount, reason, 'admin');
        else await ledger.purchase(user.id, amount, reason, 'admin');
        return await show(user.id);
      }
      case 'set-plan': {
        const user = await userByEmail();
        await updateUserFlags(database.db, user.id, { plan: planOf(values.plan) });
        return await show(user.id);
      }
      case 'set-restricted': {
        const user = await userByEmail();
        const value = need(values.value, 'value');
        if (value !== 'true' && value !== 'false') throw new AdminError('--value must be true or false');
        await updateUserFlags(database.db, user.id, { restrictedMode: value === 'true' });
        return await show(user.id);
      }
      case 'show':
        return await show((await userByEmail()).id);
      case 'sweep-orphans': {
        const seconds = Number(values['older-than'] ?? 3600);
        if (!Number.isInteger(seconds) || seconds < 0) {
          throw new AdminError('--older-than must be a whole number of seconds, 0 or more');
        }
        const blobs = createBlobStore(config.storage);
        try {
          const swept = await sweepOrphanBlobs(database.db, blobs, new Date(Date.now() - seconds * 1000));
          return `checked ${swept.checked} stored objects, deleted ${swept.deleted.length}: ${swept.deleted.join(' ')}`;
        } finally {
          blobs.close();
        }
      }
      default:
        throw new AdminError(`Unknown command "${command}"\n\n${ADMIN_USAGE}`);
    }
  } catch (err) {
    if (err instanceof HttpError) throw new AdminError(err.message);
    throw err;
  } finally {
    await database.close();
  }
}
