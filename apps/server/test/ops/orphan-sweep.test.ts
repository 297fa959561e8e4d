import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sweepOrphanBlobs } from '../../src/services/orphan-sweep.ts';
import { LiveServer, User } from '../jobs/helpers.ts';

const server = new LiveServer();
beforeAll(() => server.start());
afterAll(async () => {
  await server.close();
  server.destroy();
});

it('deletes bytes no image row owns once they are older than the grace period, and nothing else', async () => {
  const { db } = server.koma.database;
  const { blobs, images } = server.koma;
  const user = await User.signUp(server);
  const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#f00' } })
    .png()
    .toBuffer();
  const owned = await images.putImage(user.id, png);
  await blobs.put(`${owned}.thumb`, png, 'image/png');
  // What a process killed between the two writes leaves: bytes (and a thumbnail) without a row.
  await blobs.put('orphan', png, 'image/png');
  await blobs.put('orphan.thumb', png, 'image/png');
  // Within the grace period nothing goes (an upload in flight stores its bytes before its row).
  expect((await sweepOrphanBlobs(db, blobs, new Date(Date.now() - 60_000))).deleted).toEqual([]);
  const swept = await sweepOrphanBlobs(db, blobs, new Date(Date.now() + 1000));
  expect(swept.deleted.sort()).toEqual(['orphan', 'orphan.thumb']);
  expect(await blobs.get(owned)).not.toBeNull();
  expect(await blobs.get(`${owned}.thumb`)).not.toBeNull();
  expect(await blobs.get('orphan')).toBeNull();
});
