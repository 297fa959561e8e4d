/**
 * Engine commands of `npm run admin`: `engines-check` prints the capability check, `engines-propose` a
 * model/LoRA → file mapping for the engine config from the ComfyUI server's own lists (the admin confirms it
 * by pasting it into the config).
 */
import { MODEL_CATALOGUE } from '@koma/domain';
import { ComfyUiEngine } from './comfyui/engine.ts';
import { loadEngineConfig } from './config.ts';
import { createEngineRouter } from './router.ts';
import { lorasFor, modelsFor } from './status.ts';
import { mappingSnippet } from './comfyui/propose.ts';

export const ENGINE_ADMIN_USAGE = `  engines-check                                  capability check of every engine server (ENGINES_CONFIG)
  engines-propose                                propose comfyui.files.models / loras from the server's files`;

export async function engineAdmin(command: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  if (command !== 'engines-check' && command !== 'engines-propose') return undefined;
  const config = loadEngineConfig(env);
  const router = createEngineRouter(config, env);
  if (command === 'engines-check') return JSON.stringify(await router.checkEngines(), null, 2);
  const comfy = router.engines.get('comfyui');
  if (!(comfy instanceof ComfyUiEngine))
    return 'No ComfyUI engine is configured (ENGINES_CONFIG), so there is nothing to map.';
  const models = modelsFor(router.routeOf, 'comfyui').map((m) => ({
    ...m,
    name: MODEL_CATALOGUE.find((c) => c.id === m.id)?.name ?? m.id,
  }));
  const loras = lorasFor(models);
  const { url, proposal } = await comfy.proposeFiles(models, loras);
  const lines = [`Files of ${url}:`];
  for (const p of [...proposal.models, ...proposal.loras]) {
    const what = p.match === 'exact' ? 'has' : p.match === 'fuzzy' ? `probably (${p.score})` : 'MISSING';
    lines.push(`  ${p.key}: ${what} ${p.file ?? p.wanted}`);
  }
  lines.push('', 'Check the guesses, then put this under "comfyui" → "files" in the engine config:');
  lines.push(JSON.stringify(mappingSnippet(proposal), null, 2));
  return lines.join('\n');
}
