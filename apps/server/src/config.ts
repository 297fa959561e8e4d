import path from 'node:path';
import type { HistoryOptions } from './services/version-store.ts';

/** Where image bytes live: a local folder (default) or an S3-compatible bucket. */
export type StorageConfig =
  | { kind: 'local'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      endpoint: string | undefined;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      forcePathStyle: boolean;
      prefix: string;
    };

/** Everything the server reads from the environment, already parsed and defaulted. */
export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  /** PostgreSQL connection string; when absent the server uses SQLite at `<dataDir>/koma.sqlite`. */
  databaseUrl: string | undefined;
  storage: StorageConfig;
  /** Credits granted to every new account. */
  startingCredits: number;
  /** Largest JSON body accepted on ordinary routes, in bytes. */
  bodyLimit: number;
  /** Largest decoded image accepted by POST /api/image, in bytes. */
  maxImageBytes: number;
  /** Largest decoded image accepted, in pixels (decompression-bomb guard). */
  maxImagePixels: number;
  /** Memory for recently read workspace documents (bytes); 0 turns the cache off. */
  documentCacheBytes: number;
  /** Memory for the decoded heads of recently saved workspaces (patch saves validate only what changed); 0: off. */
  headCacheBytes: number;
  /** Bytes of images a user may upload up to (uploads and inline images of requests; results always land). */
  storageQuotaBytes: number;
  /** Image uploads (POST /api/image) per user per window. */
  uploadRateLimit: { max: number; windowMs: number };
  /** Sign-in attempts per client IP per window. */
  signinRateLimit: { max: number; windowMs: number };
  /** Failed sign-ins per account per window (a success clears them). */
  signinAccountLimit: { max: number; windowMs: number };
  /** Absolute session lifetime from sign-in, in days. */
  sessionDays: number;
  /** A session unused this many days ends. */
  sessionIdleDays: number;
  /** scrypt cost of new password hashes, as log2 N (17 by default; lower only to speed up tests). */
  scryptLog2N: number;
  /** Redis for state shared by every server process (sign-in limits); none: each process counts alone. */
  redisUrl: string | undefined;
  /** Prefix of the keys this server writes in Redis. */
  redisKeyPrefix: string;
  /** Always set the Secure flag on the session cookie (it is set anyway on requests that came over HTTPS). */
  cookieSecure: boolean;
  /** Trust X-Forwarded-* from a reverse proxy (client IP for the rate limit, protocol). */
  trustProxy: boolean;
  /** Origins allowed on state-changing requests besides the request's own host. */
  allowedOrigins: string[];
  /** Folder of the built web app; served with an SPA fallback when it exists. */
  webDist: string;
  logLevel: string;
  /** Version history: retention, keyframe spacing, how often a workspace's retention pass may run. */
  history: HistoryOptions;
}

const serverRoot = path.resolve(import.meta.dirname, '..');

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

function text(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

/** Reads the server configuration from environment variables (see docs/server.md for the list). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = path.resolve(text(env, 'DATA_DIR') ?? './data');
  const bucket = text(env, 'S3_BUCKET');
  const storage: StorageConfig = bucket
    ? {
        kind: 's3',
        bucket,
        region: text(env, 'S3_REGION') ?? 'us-east-1',
        endpoint: text(env, 'S3_ENDPOINT'),
        accessKeyId: text(env, 'S3_ACCESS_KEY_ID'),
        secretAccessKey: text(env, 'S3_SECRET_ACCESS_KEY'),
        forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', text(env, 'S3_ENDPOINT') !== undefined),
        prefix: text(env, 'S3_PREFIX') ?? '',
      }
    : { kind: 'local', dir: path.resolve(text(env, 'IMAGE_DIR') ?? path.join(dataDir, 'images')) };
  const allowedOrigins = (text(env, 'ALLOWED_ORIGINS') ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  return {
    // Loopback by default: a fresh start should not expose accounts to the network until asked (HOST=0.0.0.0).
    host: text(env, 'HOST') ?? '127.0.0.1',
    port: int(env, 'PORT', 3000),
    dataDir,
    databaseUrl: text(env, 'DATABASE_URL'),
    storage,
    startingCredits: int(env, 'STARTING_CREDITS', 100),
    bodyLimit: int(env, 'BODY_LIMIT', 10 * 1024 * 1024, 1024),
    maxImageBytes: int(env, 'MAX_IMAGE_BYTES', 10 * 1024 * 1024, 1024),
    maxImagePixels: int(env, 'MAX_IMAGE_PIXELS', 100_000_000, 1),
    documentCacheBytes: int(env, 'DOCUMENT_CACHE_BYTES', 64 * 1024 * 1024),
    headCacheBytes: int(env, 'HEAD_CACHE_BYTES', 128 * 1024 * 1024),
    storageQuotaBytes: int(env, 'STORAGE_QUOTA_BYTES', 2 * 1024 * 1024 * 1024, 1),
    uploadRateLimit: {
      max: int(env, 'UPLOAD_RATE_LIMIT', 60, 1),
      windowMs: int(env, 'UPLOAD_RATE_WINDOW_MS', 60_000, 1),
    },
    signinRateLimit: {
      max: int(env, 'SIGNIN_RATE_LIMIT', 10, 1),
      windowMs: int(env, 'SIGNIN_RATE_WINDOW_MS', 60_000, 1),
    },
    signinAccountLimit: {
      max: int(env, 'SIGNIN_ACCOUNT_LIMIT', 10, 1),
      windowMs: int(env, 'SIGNIN_ACCOUNT_WINDOW_MS', 15 * 60_000, 1),
    },
    sessionDays: int(env, 'SESSION_DAYS', 30, 1),
    sessionIdleDays: int(env, 'SESSION_IDLE_DAYS', 7, 1),
    scryptLog2N: int(env, 'PASSWORD_SCRYPT_LOG2N', 17, 10),
    redisUrl: text(env, 'REDIS_URL'),
    redisKeyPrefix: text(env, 'REDIS_KEY_PREFIX') ?? 'koma:',
    cookieSecure: bool(env, 'COOKIE_SECURE', false),
    trustProxy: bool(env, 'TRUST_PROXY', false),
    allowedOrigins,
    webDist: path.resolve(text(env, 'WEB_DIST') ?? path.join(serverRoot, '..', 'web', 'dist')),
    logLevel: text(env, 'LOG_LEVEL') ?? 'info',
    history: {
      retention: {
        keepAllMs: int(env, 'HISTORY_KEEP_ALL_MINUTES', 60) * 60_000,
        hourlyMs: int(env, 'HISTORY_HOURLY_DAYS', 7) * 24 * 3600_000,
        dailyMs: int(env, 'HISTORY_DAILY_DAYS', 90) * 24 * 3600_000,
      },
      keyframes: { every: int(env, 'HISTORY_KEYFRAME_EVERY', 100, 2) },
      pruneEveryMs: int(env, 'HISTORY_PRUNE_EVERY_SECONDS', 300) * 1000,
    },
  };
}
