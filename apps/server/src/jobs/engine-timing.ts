import { EngineError } from '../engines/errors.ts';
import { engineDuration, engineErrors } from '../metrics.ts';
import type { JobDeps } from './deps.ts';
import type { RunningJob } from './kinds/handler.ts';

/**
 * One engine call of a job, measured: its latency and failures go to the metrics, and a log line with the job
 * id says how it went, so a slow or failing engine can be traced to the jobs that met it.
 */
export async function timedEngineCall<T>(
  deps: JobDeps,
  job: Pick<RunningJob, 'id' | 'engine'>,
  task: string,
  call: () => Promise<T>,
): Promise<T> {
  const started = Date.now();
  const labels = { engine: job.engine, task };
  try {
    const result = await call();
    const ms = Date.now() - started;
    engineDuration.observe(labels, ms / 1000);
    deps.log.info({ job: job.id, engine: job.engine, task, ms }, 'engine call finished');
    return result;
  } catch (err) {
    const ms = Date.now() - started;
    const code = err instanceof EngineError ? err.code : 'error';
    engineDuration.observe(labels, ms / 1000);
    engineErrors.inc({ ...labels, code });
    deps.log.warn({ job: job.id, engine: job.engine, task, ms, code }, 'engine call failed');
    throw err;
  }
}
