import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, generateApiTypes } from '../scripts/api-types.ts';

describe('the web client’s generated wire types', () => {
  it('match the OpenAPI document the routes build today (else run `npm run api:types`)', async () => {
    const checkedIn = fs.readFileSync(API_TYPES_FILE, 'utf8');
    const fresh = await generateApiTypes();
    // A plain equality would print 1,800 lines; name the first line that differs instead.
    const a = checkedIn.split('\n');
    const b = fresh.split('\n');
    const line = a.findIndex((text, i) => text !== b[i]);
    const drift =
      line === -1 && a.length === b.length
        ? null
        : `apps/web/src/api/schema.gen.ts is stale at line ${line + 1}: checked in "${a[line] ?? '(end)'}", the routes give "${b[line] ?? '(end)'}". Run npm run api:types.`;
    expect(drift).toBeNull();
  }, 60_000);
});
