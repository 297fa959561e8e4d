import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { VisionModelError } from './errors.ts';

const require = createRequire(import.meta.url);

/** Folder of an installed package, found through its resolvable entry (some packages do not export package.json). */
export function packageDir(name: string, entry = name): string {
  const resolved = require.resolve(entry);
  const marker = `${path.sep}node_modules${path.sep}${name.split('/').join(path.sep)}${path.sep}`;
  const at = resolved.lastIndexOf(marker);
  if (at < 0) throw new VisionModelError(`Could not locate package ${name} (resolved ${resolved})`);
  return resolved.slice(0, at + marker.length - 1);
}

/**
 * Pure tfjs has no file:// loader (tfjs-node, which has one, cannot install offline), so models that ship
 * inside npm packages are read from disk by this IO handler.
 */
function fileIoHandler(modelJsonPath: string): tf.io.IOHandler {
  return {
    async load() {
      const json = JSON.parse(await readFile(modelJsonPath, 'utf8')) as {
        modelTopology: object;
        format?: string;
        generatedBy?: string;
        convertedBy?: string;
        signature?: object;
        userDefinedMetadata?: Record<string, object>;
        weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
      };
      const dir = path.dirname(modelJsonPath);
      const weightSpecs: tf.io.WeightsManifestEntry[] = [];
      const parts: Buffer[] = [];
      for (const group of json.weightsManifest) {
        weightSpecs.push(...group.weights);
        for (const p of group.paths) parts.push(await readFile(path.join(dir, p)));
      }
      const all = Buffer.concat(parts);
      return {
        modelTopology: json.modelTopology,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy,
        signature: json.signature,
        userDefinedMetadata: json.userDefinedMetadata,
        weightSpecs,
        weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
      };
    },
  };
}

let ready: Promise<typeof tf> | undefined;

/** Starts tfjs on the wasm backend once per thread, with its .wasm files read from the package folder. */
export function initTf(): Promise<typeof tf> {
  ready ??= (async () => {
    setWasmPaths(`${packageDir('@tensorflow/tfjs-backend-wasm')}/dist/`);
    // tfjs's router type says IOHandler, but its registry skips routers that answer null (not ours).
    const router = (url: string | string[]) => {
      const s = Array.isArray(url) ? url[0] : url;
      return typeof s === 'string' && s.startsWith('file://') ? fileIoHandler(fileURLToPath(s)) : null;
    };
    tf.io.registerLoadRouter(router as Parameters<typeof tf.io.registerLoadRouter>[0]);
    if (!(await tf.setBackend('wasm'))) throw new VisionModelError('Could not start the tfjs wasm backend');
    await tf.ready();
    return tf;
  })();
  return ready;
}

/** Loads a tfjs graph model from a model.json on disk. */
export async function loadGraphModel(modelJsonPath: string): Promise<tf.GraphModel> {
  await initTf();
  try {
    return await tf.loadGraphModel(fileIoHandler(modelJsonPath));
  } catch (cause) {
    throw new VisionModelError(`Could not load model ${path.basename(modelJsonPath)}: ${String(cause)}`, { cause });
  }
}
