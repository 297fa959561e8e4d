import type { Engine, EngineId, EngineTask } from './types.ts';
import { taskModelId, taskModelType } from './types.ts';
import { EngineError } from './errors.ts';
import { BuiltinEngine } from './builtin/engine.ts';
import { ComfyUiEngine } from './comfyui/engine.ts';
import { EngineConfigError } from './config.ts';
import type { EngineConfig, EngineRoute } from './config.ts';
import { FalEngine } from './fal/engine.ts';
import { OpenAiEngine } from './openai/engine.ts';

export interface EngineRouter {
  /** The engine for a task: the first matching route, else the default. Throws `validation` if it cannot run it. */
  engineFor(task: EngineTask): Engine;
  /** The engines built from the config, by id. */
  readonly engines: ReadonlyMap<EngineId, Engine>;
}

function matches(route: EngineRoute, task: EngineTask): boolean {
  const model = taskModelId(task);
  const type = taskModelType(task);
  if (route.kinds && !route.kinds.includes(task.kind)) return false;
  if (route.models && (model === undefined || !route.models.includes(model))) return false;
  if (route.modelTypes && (type === undefined || !route.modelTypes.includes(type))) return false;
  return true;
}

function apiKey(engine: string, envName: string, env: NodeJS.ProcessEnv): string {
  const key = env[envName]?.trim();
  if (!key)
    throw new EngineConfigError(`The ${engine} engine is configured but the environment variable ${envName} is empty`);
  return key;
}

/** Builds every configured engine once (missing API keys fail here, at start-up) and routes tasks to them. */
export function createEngineRouter(config: EngineConfig, env: NodeJS.ProcessEnv = process.env): EngineRouter {
  const engines = new Map<EngineId, Engine>();
  engines.set('builtin', new BuiltinEngine(config.builtin ?? {}));
  if (config.comfyui) engines.set('comfyui', new ComfyUiEngine(config.comfyui));
  if (config.fal) {
    const { keyEnv, ...rest } = config.fal;
    engines.set('fal', new FalEngine({ ...rest, apiKey: apiKey('fal', keyEnv, env) }));
  }
  if (config.openai) {
    const { keyEnv, ...rest } = config.openai;
    engines.set('openai', new OpenAiEngine({ ...rest, apiKey: apiKey('openai', keyEnv, env) }));
  }

  return {
    engines,
    engineFor(task) {
      const id = config.routes.find((route) => matches(route, task))?.engine ?? config.default;
      const engine = engines.get(id);
      if (!engine) throw new EngineConfigError(`Engine ${id} is routed to but not configured`);
      if (!engine.supports(task)) {
        const model = taskModelId(task);
        throw new EngineError(
          'validation',
          `The ${id} engine cannot run ${task.kind}${model ? ` with ${model}` : ''}; check the routes in the engine config`,
        );
      }
      return engine;
    },
  };
}
