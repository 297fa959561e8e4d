#!/usr/bin/env node
// Counts the places in shared source that branch on a layer's type, so the shape of the code can be measured
// before and after a refactor with the same ruler (issue #15). A "site" is one of:
//   - a `switch` with at least one `case 'IMAGE':` (any layer type) label;
//   - a comparison (=== !== == !=) between a layer-type string literal and an expression ending in `.type`
//     (or a bare `type` identifier).
// Tests (*.test.ts(x), test/ folders) and the domain's own schema are not shared code and are skipped.
// Usage: node scripts/count-kind-branches.mjs [--json]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = new URL('..', import.meta.url).pathname;
const ROOTS = ['packages/domain/src', 'packages/editor/src', 'apps/web/src', 'apps/server/src'];
const TYPES = new Set(['GROUP', 'IMAGE', 'TEXT', 'PANEL', 'POSE', 'SKETCH', 'FILL']);

function* sources(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name === 'test' || name === 'node_modules' || name === 'dist') continue;
      yield* sources(path);
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

const isTypeLiteral = (n) => ts.isStringLiteralLike(n) && TYPES.has(n.text);
const isTypeAccess = (n) =>
  (ts.isPropertyAccessExpression(n) && n.name.text === 'type') || (ts.isIdentifier(n) && n.text === 'type');
const COMPARE = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

function count(path) {
  const text = readFileSync(path, 'utf8');
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('x') ? 4 : 3);
  let switches = 0;
  let compares = 0;
  const visit = (n) => {
    if (ts.isSwitchStatement(n)) {
      const labels = n.caseBlock.clauses.filter(ts.isCaseClause).map((c) => c.expression);
      if (labels.some(isTypeLiteral)) switches++;
    } else if (ts.isBinaryExpression(n) && COMPARE.has(n.operatorToken.kind)) {
      if ((isTypeLiteral(n.left) && isTypeAccess(n.right)) || (isTypeLiteral(n.right) && isTypeAccess(n.left)))
        compares++;
    }
    ts.forEachChild(n, visit);
  };
  visit(file);
  return { switches, compares, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) };
}

const rows = [];
for (const root of ROOTS)
  for (const path of sources(join(ROOT, root))) rows.push({ file: relative(ROOT, path), ...count(path) });
const hits = rows
  .filter((r) => r.switches + r.compares > 0)
  .sort((a, b) => b.switches + b.compares - (a.switches + a.compares));
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(hits, null, 2));
} else {
  for (const r of hits)
    console.log(
      `${String(r.switches + r.compares).padStart(3)}  (switch ${r.switches}, compare ${r.compares})  ${r.file}`,
    );
  const sw = hits.reduce((s, r) => s + r.switches, 0);
  const cmp = hits.reduce((s, r) => s + r.compares, 0);
  console.log(`total: ${sw + cmp} sites (${sw} switches, ${cmp} comparisons) in ${hits.length} files`);
}
