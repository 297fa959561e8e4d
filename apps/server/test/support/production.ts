import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer } from '../../scripts/build.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..', '..');
const cacheRoot = path.join(repoRoot, 'node_modules', '.cache', 'koma-production');

interface Manifest {
  workspaces: string[];
}

/** Everything `npm ci` reads: the lock, the npm settings and every workspace manifest. */
function installInputs(): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Manifest;
  return ['package.json', 'package-lock.json', '.npmrc', ...manifest.workspaces.map((w) => `${w}/package.json`)];
}

function installKey(): string {
  const hash = createHash('sha256');
  for (const file of installInputs()) hash.update(file).update(fs.readFileSync(path.join(repoRoot, file)));
  return hash.digest('hex').slice(0, 16);
}

function versionOf(nodeModules: string, name: string): string {
  const manifest = path.join(nodeModules, name, 'package.json');
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/**
 * A production install, exactly as the Dockerfile makes it: the lock, the manifests, then
 * `npm ci --omit=dev --workspace @koma/server`. Made once per lockfile (it takes a minute and 1 GB) under
 * node_modules/.cache/koma-production/<hash of the inputs>, and reused while the inputs are unchanged.
 *
 * Install scripts are skipped and better-sqlite3's compiled addon is copied from the development install:
 * its prebuilt download is unreachable on these machines and compiling it takes minutes. Both installs come
 * from the same lock, so it is the same version for the same Node (checked). Nothing else needs a script at
 * run time (sharp and msgpackr load prebuilt optional packages; onnxruntime-node's script is skipped by .npmrc).
 */
export function productionNodeModules(): string {
  const key = installKey();
  const ready = path.join(cacheRoot, key);
  if (fs.existsSync(path.join(ready, 'node_modules'))) return path.join(ready, 'node_modules');
  fs.mkdirSync(cacheRoot, { recursive: true });
  const work = fs.mkdtempSync(path.join(cacheRoot, `${key}.tmp-`));
  for (const file of installInputs()) {
    fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, file), path.join(work, file));
  }
  execFileSync(
    'npm',
    ['ci', '--omit=dev', '--workspace', '@koma/server', '--ignore-scripts', '--prefer-offline', '--no-audit'],
    { cwd: work, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NPM_CONFIG_LOGLEVEL: 'error' } },
  );
  const devModules = path.join(repoRoot, 'node_modules');
  const prodModules = path.join(work, 'node_modules');
  const devSqlite = versionOf(devModules, 'better-sqlite3');
  const prodSqlite = versionOf(prodModules, 'better-sqlite3');
  if (devSqlite !== prodSqlite) throw new Error(`better-sqlite3 differs: ${devSqlite} vs ${prodSqlite}`);
  fs.cpSync(path.join(devModules, 'better-sqlite3', 'build'), path.join(prodModules, 'better-sqlite3', 'build'), {
    recursive: true,
  });
  try {
    fs.renameSync(work, ready);
  } catch {
    // Another test process finished the same install first; use theirs.
    fs.rmSync(work, { recursive: true, force: true });
  }
  // Installs of older lockfiles are dead weight.
  for (const entry of fs.readdirSync(cacheRoot)) {
    if (entry !== key && !entry.includes('.tmp-')) fs.rmSync(path.join(cacheRoot, entry), { recursive: true });
  }
  return path.join(ready, 'node_modules');
}

/** A folder laid out like the container's /app: production node_modules plus a fresh build of the server. */
export interface ProductionTree {
  root: string;
  /** apps/server inside it: the working directory of the processes. */
  serverDir: string;
  remove(): void;
}

/**
 * Builds the server into a temporary copy of the container's layout (node_modules linked to the production
 * install; no TypeScript, no tsx, no dev packages reachable) so that what the tests start is what ships.
 */
export async function productionTree(): Promise<ProductionTree> {
  const modules = productionNodeModules();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'koma-prod-'));
  const serverDir = path.join(root, 'apps', 'server');
  fs.mkdirSync(serverDir, { recursive: true });
  fs.symlinkSync(modules, path.join(root, 'node_modules'), 'dir');
  // npm nests a package under the workspace when its version differs from one hoisted for another workspace
  // (openai today): the container keeps that folder too.
  const nested = path.join(path.dirname(modules), 'apps', 'server', 'node_modules');
  if (fs.existsSync(nested)) fs.symlinkSync(nested, path.join(serverDir, 'node_modules'), 'dir');
  fs.copyFileSync(path.join(repoRoot, 'apps', 'server', 'package.json'), path.join(serverDir, 'package.json'));
  await buildServer(path.join(serverDir, 'dist'));
  return { root, serverDir, remove: () => fs.rmSync(root, { recursive: true, force: true }) };
}
