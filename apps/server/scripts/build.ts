/**
 * `npm run build -w @koma/server`: compiles the server, the job worker, the admin tool and the vision worker
 * thread to JavaScript in apps/server/dist (esbuild; why esbuild: docs/decisions/server.md). The workspace
 * packages (@koma/domain) are TypeScript sources, so they are bundled in; every npm dependency stays external
 * and is loaded from node_modules, which is what `npm ci --omit=dev` installs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const serverRoot = path.resolve(import.meta.dirname, '..');
/** Where `npm start` and the container run the server from. */
export const DIST_DIR = path.join(serverRoot, 'dist');
const manifest = JSON.parse(fs.readFileSync(path.join(serverRoot, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
/** Runtime packages from the registry; the @koma/* workspaces are compiled into the output instead. */
export const externalPackages = Object.keys(manifest.dependencies).filter((name) => !name.startsWith('@koma/'));

/** Compiles into `outdir` (default dist/), replacing what was there. */
export async function buildServer(outdir = DIST_DIR): Promise<void> {
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: serverRoot,
    entryPoints: {
      main: 'src/main.ts',
      worker: 'src/worker.ts',
      admin: 'src/admin.ts',
      // Loaded by URL from vision/worker-client.ts, next to the chunk that starts it.
      'vision-worker': 'src/vision/worker.ts',
    },
    outdir,
    bundle: true,
    // Shared code and the vision models' lazy imports become chunks. Every file lands directly in dist/, so
    // `import.meta.dirname` is the same folder for all code (config.ts finds the server root as its parent).
    splitting: true,
    chunkNames: '[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    // Each package and any of its subpaths (sharp, @aws-sdk/client-s3, upscaler/node…).
    external: externalPackages.flatMap((name) => [name, `${name}/*`]),
    sourcemap: true,
    logLevel: 'warning',
    metafile: true,
  });
  // A package missing from `dependencies` would be bundled from the hoisted node_modules of a full install;
  // refuse instead, so the runtime set stays exactly what package.json declares.
  const inputs = Object.keys(result.metafile.inputs).filter((file) => file.includes('node_modules'));
  if (inputs.length > 0) {
    throw new Error(`build bundled files from node_modules (declare them in dependencies): ${inputs.join(', ')}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const started = Date.now();
  await buildServer();
  console.log(`built apps/server/dist in ${Date.now() - started} ms`);
}
