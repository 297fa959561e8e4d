import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditWorkspace, importsOf, packageOf, type Manifest } from './import-audit.ts';

const root = path.resolve(import.meta.dirname, '..');
const rootManifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest & {
  workspaces: string[];
};

// Each workspace must declare what it imports (COMMON.md), or an install of one workspace — or `npm ci
// --omit=dev` for the server — breaks in ways the hoisted node_modules of a full install hides.
// Deliberate exceptions, by workspace and file.
const allowed: Record<string, Record<string, string[]>> = {
  // A build-time thumbnail generator that renders bubbles with the editor's outlines (its header says why);
  // declaring the editor in the domain's package.json would announce a dependency the domain does not have.
  'packages/domain': { 'scripts/build-bubble-thumbnails.ts': ['@koma/editor'] },
};

describe('workspace dependency declarations', () => {
  for (const workspace of rootManifest.workspaces) {
    it(`${workspace} declares every package it imports`, () => {
      const problems = auditWorkspace(path.join(root, workspace), allowed[workspace]);
      expect(problems).toEqual([]);
    });
  }
});

describe('the import audit itself', () => {
  it('reads static, side-effect, type-only, multi-line and dynamic imports', () => {
    const source = [
      "import a from 'alpha';",
      "import type { B } from '@scope/beta/sub';",
      'import {',
      '  c,',
      "} from 'gamma/deep/path.js';",
      "import 'delta/style.css';",
      "export { e } from 'epsilon';",
      "const f = await import('zeta');",
      "import g from './local.ts';",
      "import h from 'node:fs';",
      'const text = \'import x from "not-an-import"\';',
    ].join('\n');
    expect(importsOf(source)).toEqual([
      { specifier: 'alpha', typeOnly: false },
      { specifier: '@scope/beta/sub', typeOnly: true },
      { specifier: 'gamma/deep/path.js', typeOnly: false },
      { specifier: 'delta/style.css', typeOnly: false },
      { specifier: 'epsilon', typeOnly: false },
      { specifier: 'zeta', typeOnly: false },
      { specifier: './local.ts', typeOnly: false },
      { specifier: 'node:fs', typeOnly: false },
    ]);
  });

  it('names the package of a specifier and skips builtins and relative paths', () => {
    expect(packageOf('@scope/beta/sub')).toBe('@scope/beta');
    expect(packageOf('gamma/deep/path.js')).toBe('gamma');
    expect(packageOf('./local.ts')).toBeUndefined();
    expect(packageOf('node:fs')).toBeUndefined();
    expect(packageOf(builtinModules[0] ?? 'fs')).toBeUndefined();
  });

  it('reports an undeclared import, and a production import that is only a dev dependency', () => {
    const dir = fs.mkdtempSync(path.join(fs.mkdtempSync('/tmp/koma-audit-'), 'ws-'));
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'x', dependencies: { kept: '1' }, devDependencies: { devonly: '1', types: '1' } }),
    );
    fs.writeFileSync(
      path.join(dir, 'src', 'main.ts'),
      "import 'kept';\nimport 'missing';\nimport d from 'devonly';\nimport type { T } from 'types';\n",
    );
    fs.writeFileSync(path.join(dir, 'src', 'main.test.ts'), "import 'devonly';\nimport 'alsomissing';\n");
    expect(auditWorkspace(dir)).toEqual([
      'src/main.test.ts imports alsomissing, which package.json does not declare',
      'src/main.ts imports devonly, which is only a devDependency but this file runs in production',
      'src/main.ts imports missing, which package.json does not declare',
    ]);
  });
});
