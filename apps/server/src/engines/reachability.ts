/**
 * Is each configured engine reachable right now? For readiness checks and metrics (`/api/ready`): one cheap
 * request per remote end, no job and no charge, answers shared for a few seconds so a busy probe loop does not
 * turn into load on the GPU servers or the hosted APIs.
 */
import { EngineError } from './errors.ts';
import type { Engine, EngineId, EngineProbe, EngineProbeCode, EngineProbeTarget } from './types.ts';

export interface EngineReachability extends EngineProbe {
  id: EngineId;
  /** When this answer was taken (it may come from the cache). */
  checkedAt: string;
  latencyMs: number;
}

export interface ReachabilityOptions {
  /** Time limit of the whole check; an engine still silent then counts as unreachable (`timeout`). */
  timeoutMs?: number;
  /** Answers younger than this are reused (0 probes every time). */
  maxAgeMs?: number;
}

const cache = new WeakMap<object, { at: number; answer: Promise<EngineReachability[]> }>();

/** One remote end's answer, from what its probe request threw (nothing: it answered). */
export function probeTarget(url: string, err: unknown, signal: AbortSignal): EngineProbeTarget {
  if (err === undefined) return { url, reachable: true };
  let code: EngineProbeCode = 'engine_failed';
  if (signal.aborted) code = 'timeout';
  else if (err instanceof EngineError) {
    if (err.code === 'engine_auth' || err.code === 'timeout') code = err.code;
    else if (err.code === 'engine_unreachable' || err.code === 'connection_lost') code = 'engine_unreachable';
  }
  const detail = signal.aborted
    ? `${url} did not answer in time`
    : err instanceof Error
      ? err.message
      : JSON.stringify(err);
  return { url, reachable: false, code, detail };
}

/** An engine is reachable when any of its ends is; otherwise it reports the first end's reason. */
export function probeOf(targets: EngineProbeTarget[]): EngineProbe {
  const failed = targets.find((t) => !t.reachable);
  if (targets.some((t) => t.reachable) || !failed) return { reachable: true, targets };
  return {
    reachable: false,
    ...(failed.code ? { code: failed.code } : {}),
    ...(failed.detail ? { detail: failed.detail } : {}),
    targets,
  };
}

async function probeEngine(id: EngineId, engine: Engine, signal: AbortSignal): Promise<EngineReachability> {
  const started = Date.now();
  let probe: EngineProbe;
  if (!engine.probe) probe = { reachable: true, targets: [] };
  else {
    try {
      probe = await engine.probe(signal);
    } catch (err) {
      probe = probeOf([probeTarget(id, err, signal)]);
    }
  }
  return { id, ...probe, checkedAt: new Date().toISOString(), latencyMs: Date.now() - started };
}

/**
 * Every configured engine with whether it can take a job now: builtin always; ComfyUI when at least one of its
 * servers answers `GET /prompt` (with the configured credentials); fal when its queue host answers; OpenAI when
 * `GET /models/{model}` answers with the key. Never throws; the order is the router's.
 */
export function engineReachability(
  router: { readonly engines: ReadonlyMap<EngineId, Engine> },
  options: ReachabilityOptions = {},
): Promise<EngineReachability[]> {
  const { timeoutMs = 3_000, maxAgeMs = 5_000 } = options;
  const hit = cache.get(router);
  if (hit && Date.now() - hit.at < maxAgeMs) return hit.answer;
  const signal = AbortSignal.timeout(timeoutMs);
  const answer = Promise.all([...router.engines].map(([id, engine]) => probeEngine(id, engine, signal)));
  cache.set(router, { at: Date.now(), answer });
  return answer;
}
