import type { ServerConfig } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import type { Accounts } from './services/accounts.ts';
import type { SigninLimiter } from './services/attempt-limiter.ts';
import type { CreditLedger } from './services/credit-ledger.ts';
import type { JobService } from './jobs/service.ts';
import type { ImageStore } from './services/image-store.ts';
import type { Workspaces } from './services/workspaces.ts';
import type { BlobStore } from './storage/blob-store.ts';

/** The server's shared pieces, reachable as `app.koma` from any route plugin (generation routes included). */
export interface AppContext {
  config: ServerConfig;
  database: DatabaseHandle;
  blobs: BlobStore;
  ledger: CreditLedger;
  images: ImageStore;
  accounts: Accounts;
  workspaces: Workspaces;
  /** The generation job pipeline (src/jobs). */
  jobs: JobService;
  now: () => Date;
  /** Sign-in attempt limits per IP and per account (shared through Redis when REDIS_URL is set). */
  signinLimiter: SigninLimiter;
}

declare module 'fastify' {
  interface FastifyInstance {
    koma: AppContext;
  }
}
