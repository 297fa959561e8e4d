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
  const module = tools.parseWat('blend.wat', readFileSync(source, 'utf8'), { simd: true });
  try {
    module.validate();
    return new Uint8Array(module.toBinary({}).buffer);
  } finally {
    module.destroy();
  }
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
