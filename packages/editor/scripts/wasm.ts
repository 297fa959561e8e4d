// Compiles src/export/blend.wat with wabt (the WebAssembly binary toolkit's own parser, built for npm) into the
// bytes blend-wasm.ts carries: the app loads no file and runs no compiler, and a test recompiles to catch drift.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import wabt from 'wabt';

const source = fileURLToPath(new URL('../src/export/blend.wat', import.meta.url));
const target = fileURLToPath(new URL('../src/export/blend-wasm.ts', import.meta.url));

/** The kernel's bytes, compiled from its text. */
export async function compileBlendKernel(): Promise<Uint8Array> {
  const tools = await wabt();
  const module = tools.parseWat('blend.wat', expandDiv255(readFileSync(source, 'utf8')), { simd: true });
  try {
    module.validate();
    return new Uint8Array(module.toBinary({}).buffer);
  } finally {
    module.destroy();
  }
}

/**
 * The text with each `(div255 x)` written out: round(x / 255) on 16-bit lanes, as (t + (t >> 8)) >> 8 with t = x + 128
 * held in $q (an inner div255 in x is done before the outer one sets $q). Comments go first: they hold the word too.
 */
export function expandDiv255(wat: string): string {
  const code = wat.replace(/;;[^\n]*/g, '');
  const at = code.indexOf('(div255');
  if (at < 0) return code;
  let depth = 0;
  let end = at;
  for (; end < code.length; end++) {
    if (code[end] === '(') depth++;
    if (code[end] === ')' && --depth === 0) break;
  }
  if (depth !== 0) throw new Error(`blend.wat: unbalanced (div255 at ${at}`);
  const x = expandDiv255(code.slice(at + '(div255'.length, end));
  const div =
    `(i16x8.shr_u (i16x8.add (local.tee $q (i16x8.add ${x.trim()} (local.get $c128)))` +
    ` (i16x8.shr_u (local.get $q) (i32.const 8))) (i32.const 8))`;
  return code.slice(0, at) + div + expandDiv255(code.slice(end + 1));
}

/** blend-wasm.ts for those bytes. */
export function blendKernelModule(bytes: Uint8Array): string {
  const base64 = Buffer.from(bytes).toString('base64');
  const lines = base64.match(/.{1,100}/g) ?? [];
  return [
    '// Generated from blend.wat by `npm run build:wasm -w @koma/editor`; do not edit (a test recompiles and compares).',
    'export const BLEND_WASM_BASE64 =',
    lines.map((l) => `  '${l}'`).join(' +\n') + ';',
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(target, blendKernelModule(await compileBlendKernel()));
  console.log(`wrote ${target}`);
}
