// Test fixtures written straight into a running server's SQLite database, for records no public endpoint creates
// yet: flow images are recorded by the generation pipeline, and plans are changed by the admin command.
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import type { RunningServer } from './server.ts';

export function seedFlowImage(
  server: RunningServer,
  userId: string,
  variationId: string,
  generationData: Record<string, unknown>,
): void {
  const db = new Database(path.join(server.dataDir, 'koma.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare(
      'insert into flow_images (id, user_id, variation_id, generation_data, created_at) values (?, ?, ?, ?, ?)',
    ).run(randomUUID(), userId, variationId, JSON.stringify(generationData), new Date().toISOString());
  } finally {
    db.close();
  }
}

/** Moves an account to another plan, as `npm run admin -- set-plan` does (the export re-reads it from the server). */
export function setPlan(server: RunningServer, email: string, plan: 'free' | 'subscriber'): void {
  const db = new Database(path.join(server.dataDir, 'koma.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const { changes } = db.prepare('update users set plan = ? where email = ?').run(plan, email);
    if (changes !== 1) throw new Error(`No account ${email} to move to the ${plan} plan`);
  } finally {
    db.close();
  }
}
