// Test fixtures written straight into a running server's SQLite database, for records no public endpoint creates
// yet: flow images are recorded by the generation pipeline.
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
