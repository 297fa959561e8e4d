import type { Engine, EngineId, EngineTask } from './types.ts';
import { taskModelId, taskModelType } from './types.ts';
import { EngineError } from './errors.ts';
import { BuiltinEngine } from './builtin/engine.ts';
import { ComfyUiEngine } from './comfyui/engine.ts';
import { EngineConfigError } from './config.ts';
import type { EngineConfig, EngineRoute } from './config.ts';
import { FalEngine } from './fal/engine.ts';
import { OpenAiEngine } from './openai/engine.ts';
import { checkEngines, modelAvailability } from './status.ts';
import type { EnginesStatus, ModelAvailability } from './status.ts';

export interface EngineRouter {
  /** The engine for a task: the first matching route, else the default. Throws `validation` if it cannot run it. */
  engineFor(task: EngineTask): Engine;
  /** The engines built from the config, by id. */
  readonly engines: ReadonlyMap<EngineId, Engine>;
  // The status members are optional so that test doubles of the router need not implement them.
  /** The capability check: every ComfyUI server against the catalogue models and LoRAs routed to it. */
  checkEngines?: () => Promise<EnginesStatus>;
  /** The last check's verdict per catalogue model and LoRA (available until a check says otherwise). */
  modelAvailability?: () => ModelAvailability;
  /** The last check, or undefined before the first. */
  lastStatus?: () => EnginesStatus | undefined;
  /** The engine id a task routes to, whether or not that engine can run it. */
  routeOf?: (task: EngineTask) => EngineId;
}

/** The router as built from a config: with the status members. */
export type ConfiguredEngineRouter = Required<EngineRouter>;

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
export function createEngineRouter(config: EngineConfig, env: NodeJS.ProcessEnv = process.env): ConfiguredEngineRouter {
  const engines = new Map<EngineId, Engine>();
  engines.set('builtin', new BuiltinEngine(config.builtin ?? {}));
  if (config.comfyui) {
    const { servers, ...rest } = config.comfyui;
    engines.set(
      'comfyui',
      new ComfyUiEngine({
        ...rest,
        servers: servers.map((s) => {
          if (typeof s === 'string') return s;
          if (s.tokenEnv) return { url: s.url, auth: { bearer: apiKey(`ComfyUI (${s.url})`, s.tokenEnv, env) } };
          if (s.basicAuthEnv) {
            const basic = apiKey(`ComfyUI (${s.url})`, s.basicAuthEnv, env);
            if (!basic.includes(':')) {
              throw new EngineConfigError(`${s.basicAuthEnv} must hold user:password for ComfyUI at ${s.url}`);
            }
            return { url: s.url, auth: { basic } };
          }
          return s.url;
        }),
      }),
    );
  }
  if (config.fal) {
    const { keyEnv, ...rest } = config.fal;
    engines.set('fal', new FalEngine({ ...rest, apiKey: apiKey('fal', keyEnv, env) }));
  }
  if (config.openai) {
    const { keyEnv, ...rest } = config.openai;
    engines.set('openai', new OpenAiEngine({ ...rest, apiKey: apiKey('openai', keyEnv, env) }));
  }

  const routeOf = (task: EngineTask): EngineId =>
    config.routes.find((route) => matches(route, task))?.engine ?? config.default;
  let last: EnginesStatus | undefined;

  return {
    engines,
    checkEngines: async () => {
      last = await checkEngines(engines, routeOf);
      return last;
    },
    modelAvailability: () => modelAvailability(engines, routeOf),
    lastStatus: () => last,
    routeOf,
    engineFor(task) {
      const id = routeOf(task);
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
