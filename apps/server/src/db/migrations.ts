import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { migrateFullCopies } from './migrate-revisions.ts';

// One list for both dialects: only types and statements that SQLite and PostgreSQL read alike.
// Append new migrations; never edit a released one.
const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('plan', 'text', (c) => c.notNull().defaultTo('free'))
        .addColumn('restricted_mode', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('credits', 'integer', (c) =>
          c
            .notNull()
            .defaultTo(0)
            .check(sql`credits >= 0`),
        )
        .addColumn('purchased_credits', 'integer', (c) =>
          c
            .notNull()
            .defaultTo(0)
            .check(sql`purchased_credits >= 0`),
        )
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('credit_ledger')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('credits_delta', 'integer', (c) => c.notNull())
        .addColumn('purchased_delta', 'integer', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('ref', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('credit_ledger_user_ref').on('credit_ledger').columns(['user_id', 'ref']).execute();

      await db.schema
        .createTable('workspaces')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('thumbnail_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('thumbnail_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('workspaces_user_updated')
        .on('workspaces')
        .columns(['user_id', 'updated_at'])
        .execute();

      await db.schema
        .createTable('workspace_revisions')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('saved_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('workspace_revisions_pk', ['workspace_id', 'revision'])
        .execute();

      await db.schema
        .createTable('images')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('byte_size', 'integer', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('images_user').on('images').column('user_id').execute();

      await db.schema
        .createTable('preferences')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('flow_images')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('variation_id', 'text', (c) => c.notNull())
        .addColumn('generation_data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('flow_images_user_variation')
        .on('flow_images')
        .columns(['user_id', 'variation_id'])
        .execute();
    },
  },
  '0002_jobs': {
    // Generation jobs (src/jobs): one row per job; the credits it charged are kept per bucket for the refund.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('lane', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        // Submission order (microseconds since the epoch, made unique per process): queue order and positions.
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('engine', 'text', (c) => c.notNull())
        .addColumn('cost', 'integer', (c) => c.notNull())
        .addColumn('charged_credits', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('charged_purchased', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('refunded', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('inputs', 'text', (c) => c.notNull())
        .addColumn('output', 'text')
        .addColumn('error', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .execute();
      await db.schema.createIndex('jobs_status_lane').on('jobs').columns(['status', 'lane', 'seq']).execute();
      await db.schema.createIndex('jobs_user_status').on('jobs').columns(['user_id', 'status']).execute();
      await db.schema
        .createTable('job_videos')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('byte_size', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0003_job_client': {
    // What the submitting client tagged a job with (the editor: which document and layer it belongs to), so any
    // browser of the user can re-attach to it and land its result.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('jobs').addColumn('client', 'text').execute();
    },
  },
  '0004_session_activity': {
    // Sessions end after a period without use (SESSION_IDLE_DAYS) as well as at their absolute expiry; rows from
    // before this column count from their creation.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('sessions').addColumn('last_seen_at', 'text').execute();
    },
  },
  '0005_idempotency_keys': {
    // Paid requests retried with the same Idempotency-Key get their first job back instead of a second charge.
    // The primary key is what makes two simultaneous requests with one key create one job.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('job_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
        .execute();
    },
  },
  '0006_revision_patches': {
    // Versions stored as what changed (issue 14 item 4): a row is a keyframe (`full`, the whole document) or a
    // JSON Patch against the row before it. Rows before this migration are full copies; they are turned into
    // patches here. `tab` and `device` say where a save came from, `thumbnail_id` what the document looked like.
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('workspace_revisions')
        .addColumn('kind', 'text', (c) => c.notNull().defaultTo('full'))
        .execute();
      await db.schema.alterTable('workspace_revisions').addColumn('tab', 'text').execute();
      await db.schema.alterTable('workspace_revisions').addColumn('device', 'text').execute();
      await db.schema.alterTable('workspace_revisions').addColumn('thumbnail_id', 'text').execute();
      await migrateFullCopies(db);
    },
  },
  '0007_chain_counters': {
    // How many patches follow the last keyframe, and their length, kept on the workspace row that every save
    // updates anyway: deciding the next version's form no longer scans the workspace's versions (a query that
    // grew with the history and cost a patch save as much as its validation).
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('workspaces')
        .addColumn('chain_patches', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('workspaces')
        .addColumn('chain_bytes', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      const after = sql`workspace_revisions.workspace_id = workspaces.id and workspace_revisions.revision > (
        select coalesce(max(k.revision), 0) from workspace_revisions k
        where k.workspace_id = workspaces.id and k.kind = 'full')`;
      await sql`update workspaces set
        chain_patches = (select count(*) from workspace_revisions where ${after}),
        chain_bytes = (select coalesce(sum(length(data)), 0) from workspace_revisions where ${after})`.execute(db);
    },
  },
  '0008_job_claim_key': {
    // The run token that claimed a job, written by the claiming update itself. Before, a worker recorded its claim
    // in the token only after the database had it, and one killed between the two left its job IN_PROGRESS for
    // good (seen in the scale-out test under load).
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('jobs').addColumn('claim_key', 'text').execute();
      await db.schema.createIndex('jobs_claim_key').on('jobs').column('claim_key').execute();
    },
  },
};

/** The server's migrations, for Kysely's Migrator. */
export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
