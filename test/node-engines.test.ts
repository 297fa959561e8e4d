import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; dev?: boolean; engines?: { node?: string } | string[] }>;
};

/**
 * Packages we knowingly ship although they declare a newer Node, each with its reason. Empty is the goal.
 */
const KNOWN: Record<string, string> = {};

describe('Node versions', () => {
  // The oldest Node the README and package.json promise; every installed package must accept it, or `npm ci`
  // prints EBADENGINE and the package may use APIs that Node lacks.
  const promised = semver.minVersion(manifest.engines.node)?.version ?? '';

  it('the promise is a real version', () => {
    expect(promised).toMatch(/^20\.\d+\.\d+$/);
  });

  it(`every package in the lock accepts Node ${promised}`, () => {
    const refusing: string[] = [];
    for (const [where, entry] of Object.entries(lock.packages)) {
      const name = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!where.includes('node_modules/') || !range || KNOWN[name]) continue;
      if (!semver.satisfies(promised, range, { includePrerelease: true })) {
        refusing.push(`${name}@${entry.version ?? '?'} wants node ${range}`);
      }
    }
    expect(refusing).toEqual([]);
  });
});
