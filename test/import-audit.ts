import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

export interface Manifest {
  name?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

export interface ImportRef {
  specifier: string;
  /** `import type` / `export type`: erased by the compiler, so a devDependency is enough even in production. */
  typeOnly: boolean;
}

// Statements start a line; a string that merely contains "import" does not. The `[^'";]*?` keeps a match
// inside one statement while letting a brace list span lines.
const IMPORT =
  /^\s*(?:import|export)\s+(type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Every module specifier a TypeScript/JavaScript source imports or re-exports, in order. */
export function importsOf(source: string): ImportRef[] {
  return [...source.matchAll(IMPORT)].map((m) => ({
    specifier: (m[2] ?? m[3] ?? m[4]) as string,
    typeOnly: m[1] !== undefined,
  }));
}

const builtins = new Set(builtinModules);

/** The npm package a specifier resolves into, or undefined for relative paths and Node builtins. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  if (!name || builtins.has(name)) return undefined;
  return name;
}

function sources(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (['node_modules', 'dist', 'artifacts'].includes(entry.name) || entry.name.startsWith('.')) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full, base);
    return /\.(?:[cm]?[jt]sx?)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path.relative(base, full)] : [];
  });
}

/** Files that ship: everything under src/ except tests. The rest (tests, scripts, configs) is development. */
function isProduction(file: string): boolean {
  return (
    file.startsWith(`src${path.sep}`) && !/\.test\.[jt]sx?$/.test(file) && !file.includes(`${path.sep}test${path.sep}`)
  );
}

/**
 * Problems with one workspace's declarations, one sentence each: an import its package.json does not declare,
 * or a production file's runtime import that is only a devDependency (gone after `npm ci --omit=dev`).
 * `allowed` lists deliberate exceptions by file, each with its reason where it is declared.
 */
export function auditWorkspace(dir: string, allowed: Record<string, string[]> = {}): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
  const runtime = { ...manifest.dependencies, ...manifest.peerDependencies };
  const problems = new Set<string>();
  for (const file of sources(dir)) {
    const source = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const { specifier, typeOnly } of importsOf(source)) {
      const name = packageOf(specifier);
      if (!name || name === manifest.name || allowed[file.split(path.sep).join('/')]?.includes(name)) continue;
      if (runtime[name]) continue;
      if (!manifest.devDependencies?.[name]) {
        problems.add(`${file} imports ${name}, which package.json does not declare`);
      } else if (isProduction(file) && !typeOnly) {
        problems.add(`${file} imports ${name}, which is only a devDependency but this file runs in production`);
      }
    }
  }
  return [...problems].sort();
}
